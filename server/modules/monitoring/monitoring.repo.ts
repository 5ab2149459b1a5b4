import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { DeviceListQuery, LoginAttemptListQuery, PageQuery, SessionListQuery, UserListQuery } from '../../../shared/schemas/admin.js';

const offset = (q: PageQuery) => (q.page - 1) * q.per_page;

/** `project_id is null` for the platform's accounts, `project_id = ?` for one project's end users. */
type RealmColumn = 'users.project_id' | 'login_attempts.project_id';
function inRealm(column: RealmColumn, projectId: string | null) {
  return (eb: ExpressionBuilder<any, any>) => (projectId === null ? eb(column, 'is', null) : eb(column, '=', projectId));
}

/** Any of `columns` contains `text` (case-insensitive; LIKE's wildcards in it match themselves). */
function contains(columns: string[], text: string) {
  const pattern = `%${text.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return (eb: ExpressionBuilder<any, any>) => eb.or(columns.map((column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`));
}

/** `from` ≤ column ≤ `to`, each when given. */
function within(column: string, q: { from?: string; to?: string }) {
  return (eb: ExpressionBuilder<any, any>) => eb.and([...(q.from ? [eb(column, '>=', q.from)] : []), ...(q.to ? [eb(column, '<=', q.to)] : [])]);
}

export async function countUsers(db: Db, projectId: string | null) {
  return db
    .selectFrom('users')
    .where(inRealm('users.project_id', projectId))
    .select((eb) => [
      eb.fn.countAll<number>().as('total_users'),
      eb.fn.sum<number>(eb.case().when('is_active', '=', 1).then(1).else(0).end()).as('active_users'),
      eb.fn.sum<number>(eb.case().when('is_verified', '=', 1).then(1).else(0).end()).as('verified_users'),
    ])
    .executeTakeFirstOrThrow();
}

export async function countLoginAttempts(db: Db, projectId: string | null) {
  return db
    .selectFrom('login_attempts')
    .where(inRealm('login_attempts.project_id', projectId))
    .select((eb) => [
      eb.fn.countAll<number>().as('total_login_attempts'),
      eb.fn.sum<number>(eb.case().when('success', '=', 1).then(1).else(0).end()).as('successful_logins'),
      eb.fn.sum<number>(eb.case().when('success', '=', 0).then(1).else(0).end()).as('failed_logins'),
      eb.fn.sum<number>(eb.case().when('failure_reason', '=', 'vpn_blocked').then(1).else(0).end()).as('blocked_vpn_attempts'),
    ])
    .executeTakeFirstOrThrow();
}

export async function countUniqueDevices(db: Db, projectId: string | null): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .innerJoin('users', 'users.id', 'devices.user_id')
    .where(inRealm('users.project_id', projectId))
    .select((eb) => eb.fn.count<number>('devices.fingerprint').distinct().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listUsers(db: Db, projectId: string | null, q: PageQuery & Partial<UserListQuery>) {
  const filtered = (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      inRealm('users.project_id', projectId)(eb),
      ...(q.q ? [contains(['users.email', 'users.first_name', 'users.last_name'], q.q)(eb)] : []),
      ...(q.status ? [eb('users.is_active', '=', q.status === 'active' ? 1 : 0)] : []),
      ...(q.verified !== undefined ? [eb('users.is_verified', '=', q.verified ? 1 : 0)] : []),
      within('users.created_at', q)(eb),
    ]);
  const [rows, total] = await Promise.all([
    db.selectFrom('users').selectAll().where(filtered).orderBy('created_at', 'desc').orderBy('id').limit(q.per_page).offset(offset(q)).execute(),
    db.selectFrom('users').where(filtered).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function listLoginAttempts(db: Db, projectId: string | null, q: PageQuery & Partial<LoginAttemptListQuery>, filter: { userId?: string } = {}) {
  const filtered = (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      inRealm('login_attempts.project_id', projectId)(eb),
      ...(q.q ? [contains(['login_attempts.email', 'login_attempts.ip_address', 'login_attempts.device_fingerprint'], q.q)(eb)] : []),
      ...(q.outcome ? [eb('login_attempts.success', '=', q.outcome === 'success' ? 1 : 0)] : []),
      ...(q.vpn !== undefined ? [q.vpn ? eb.or([eb('login_attempts.is_vpn', '=', 1), eb('login_attempts.is_proxy', '=', 1)]) : eb.and([eb('login_attempts.is_vpn', '=', 0), eb('login_attempts.is_proxy', '=', 0)])] : []),
      ...(q.country ? [eb('login_attempts.country_code', '=', q.country)] : []),
      within('login_attempts.created_at', q)(eb),
    ]);
  let rows = db.selectFrom('login_attempts').selectAll().where(filtered);
  let count = db.selectFrom('login_attempts').where(filtered).select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.userId) {
    rows = rows.where('user_id', '=', filter.userId);
    count = count.where('user_id', '=', filter.userId);
  }
  const [items, total] = await Promise.all([
    rows.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.per_page).offset(offset(q)).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: items, total: Number(total.n) };
}

function devicesQuery(db: Db, projectId: string | null) {
  return db
    .selectFrom('devices')
    .innerJoin('users', 'users.id', 'devices.user_id')
    .where(inRealm('users.project_id', projectId))
    .selectAll('devices')
    .select('users.email as user_email');
}

export async function listDevices(db: Db, projectId: string | null, q: PageQuery & Partial<DeviceListQuery>, filter: { userId?: string } = {}) {
  const filtered = (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      ...(q.q ? [contains(['devices.fingerprint', 'users.email', 'devices.last_ip'], q.q)(eb)] : []),
      ...(q.status ? [eb(q.status === 'blocked' ? 'devices.is_blocked' : 'devices.is_trusted', '=', 1)] : []),
      within('devices.last_seen', q)(eb),
    ]);
  let rows = devicesQuery(db, projectId).where(filtered);
  let count = db
    .selectFrom('devices')
    .innerJoin('users', 'users.id', 'devices.user_id')
    .where(inRealm('users.project_id', projectId))
    .where(filtered)
    .select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.userId) {
    rows = rows.where('devices.user_id', '=', filter.userId);
    count = count.where('devices.user_id', '=', filter.userId);
  }
  const [items, total] = await Promise.all([
    rows.orderBy('devices.last_seen', 'desc').orderBy('devices.id').limit(q.per_page).offset(offset(q)).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: items, total: Number(total.n) };
}

export async function findDeviceById(db: Db, projectId: string | null, id: string) {
  return devicesQuery(db, projectId).where('devices.id', '=', id).executeTakeFirst();
}

export async function setDeviceFlags(db: Db, id: string, flags: { is_blocked?: 0 | 1; is_trusted?: 0 | 1 }): Promise<void> {
  await db.updateTable('devices').set(flags).where('id', '=', id).execute();
}

function liveSessionsQuery(db: Db, projectId: string | null, now: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('devices', 'devices.id', 'sessions.device_id')
    .where(inRealm('users.project_id', projectId))
    .select([
      'sessions.id',
      'sessions.user_id',
      'users.email as user_email',
      'devices.fingerprint as device_id',
      'sessions.ip_address',
      'sessions.user_agent',
      'sessions.created_at',
      'sessions.last_used_at',
      'sessions.expires_at',
    ])
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now);
}

/** Live sessions only: revoked and expired ones are history, not something to act on. */
export async function listLiveSessions(db: Db, projectId: string | null, q: PageQuery & Partial<SessionListQuery>, now: string, filter: { userId?: string } = {}) {
  const filtered = (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      ...(q.q ? [contains(['users.email', 'sessions.ip_address', 'devices.fingerprint'], q.q)(eb)] : []),
      within('sessions.created_at', q)(eb),
    ]);
  let rows = liveSessionsQuery(db, projectId, now).where(filtered);
  let count = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('devices', 'devices.id', 'sessions.device_id')
    .where(inRealm('users.project_id', projectId))
    .where(filtered)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now);
  if (filter.userId) {
    rows = rows.where('sessions.user_id', '=', filter.userId);
    count = count.where('sessions.user_id', '=', filter.userId);
  }
  const [items, total] = await Promise.all([
    rows.orderBy('sessions.last_used_at', 'desc').orderBy('sessions.id').limit(q.per_page).offset(offset(q)).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: items, total: Number(total.n) };
}

export async function findSessionById(db: Db, projectId: string | null, id: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .where(inRealm('users.project_id', projectId))
    .selectAll('sessions')
    .select('users.email as user_email')
    .where('sessions.id', '=', id)
    .executeTakeFirst();
}
