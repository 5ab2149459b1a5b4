import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import { keysetRead } from '../../db/keyset.js';
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

function userFilters(projectId: string | null, q: Partial<UserListQuery>) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      inRealm('users.project_id', projectId)(eb),
      ...(q.q ? [contains(['users.email', 'users.first_name', 'users.last_name'], q.q)(eb)] : []),
      ...(q.status ? [eb('users.is_active', '=', q.status === 'active' ? 1 : 0)] : []),
      ...(q.verified !== undefined ? [eb('users.is_verified', '=', q.verified ? 1 : 0)] : []),
      within('users.created_at', q)(eb),
    ]);
}

export async function listUsers(db: Db, projectId: string | null, q: PageQuery & Partial<UserListQuery>) {
  const filtered = userFilters(projectId, q);
  const [rows, total] = await Promise.all([
    db.selectFrom('users').selectAll().where(filtered).orderBy('created_at', 'desc').orderBy('id').limit(q.per_page).offset(offset(q)).execute(),
    db.selectFrom('users').where(filtered).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * The exports read their list in chunks, newest first, by a time that never changes once written, and
 * only what existed at `asOf` (when the export started), so what it counts up front is what it sends.
 */
export function readUsersForExport(db: Db, projectId: string | null, q: Partial<UserListQuery>, asOf: string) {
  const matching = db.selectFrom('users').selectAll().where(userFilters(projectId, q)).where('users.created_at', '<=', asOf);
  return keysetRead(db, matching, { created_at: 'users.created_at', id: 'users.id' });
}

function attemptFilters(projectId: string | null, q: Partial<LoginAttemptListQuery>) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      inRealm('login_attempts.project_id', projectId)(eb),
      ...(q.q ? [contains(['login_attempts.email', 'login_attempts.ip_address', 'login_attempts.device_fingerprint'], q.q)(eb)] : []),
      ...(q.outcome ? [eb('login_attempts.success', '=', q.outcome === 'success' ? 1 : 0)] : []),
      ...(q.vpn !== undefined ? [q.vpn ? eb.or([eb('login_attempts.is_vpn', '=', 1), eb('login_attempts.is_proxy', '=', 1)]) : eb.and([eb('login_attempts.is_vpn', '=', 0), eb('login_attempts.is_proxy', '=', 0)])] : []),
      ...(q.country ? [eb('login_attempts.country_code', '=', q.country)] : []),
      within('login_attempts.created_at', q)(eb),
    ]);
}

export async function listLoginAttempts(db: Db, projectId: string | null, q: PageQuery & Partial<LoginAttemptListQuery>, filter: { userId?: string } = {}) {
  const filtered = attemptFilters(projectId, q);
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

export function readLoginAttemptsForExport(db: Db, projectId: string | null, q: Partial<LoginAttemptListQuery>, asOf: string) {
  const matching = db.selectFrom('login_attempts').selectAll().where(attemptFilters(projectId, q)).where('login_attempts.created_at', '<=', asOf);
  return keysetRead(db, matching, { created_at: 'login_attempts.created_at', id: 'login_attempts.id' });
}

function devicesQuery(db: Db, projectId: string | null) {
  return db
    .selectFrom('devices')
    .innerJoin('users', 'users.id', 'devices.user_id')
    .where(inRealm('users.project_id', projectId))
    .selectAll('devices')
    .select('users.email as user_email');
}

function deviceFilters(q: Partial<DeviceListQuery>) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      ...(q.q ? [contains(['devices.fingerprint', 'users.email', 'devices.last_ip'], q.q)(eb)] : []),
      ...(q.status ? [eb(q.status === 'blocked' ? 'devices.is_blocked' : 'devices.is_trusted', '=', 1)] : []),
      within('devices.last_seen', q)(eb),
    ]);
}

export async function listDevices(db: Db, projectId: string | null, q: PageQuery & Partial<DeviceListQuery>, filter: { userId?: string } = {}) {
  const filtered = deviceFilters(q);
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

/**
 * Grouped by account, newest accounts first: the realm's accounts are read in order from their index and
 * each one's devices by theirs, so no chunk sorts the realm's devices (ordering them by a time of their
 * own would, for want of a column saying whose realm a device is in).
 */
export function readDevicesForExport(db: Db, projectId: string | null, q: Partial<DeviceListQuery>, asOf: string) {
  const matching = devicesQuery(db, projectId).select('users.created_at as account_created_at').where(deviceFilters(q)).where('devices.first_seen', '<=', asOf).where('users.created_at', '<=', asOf);
  return keysetRead(db, matching, { account_created_at: 'users.created_at', user_id: 'users.id', id: 'devices.id' });
}

export async function findDeviceById(db: Db, projectId: string | null, id: string) {
  return devicesQuery(db, projectId).where('devices.id', '=', id).executeTakeFirst();
}

export async function setDeviceFlags(db: Db, id: string, flags: { is_blocked?: 0 | 1; is_trusted?: 0 | 1 }): Promise<void> {
  await db.updateTable('devices').set(flags).where('id', '=', id).execute();
}

/** For each idle timeout the realm's accounts use, in minutes: the last use a live session must have had. */
export type IdleCutoffs = ReadonlyArray<readonly [minutes: number, usedSince: string]>;

/**
 * An account with an idle timeout loses a session left unused past it (refused, and revoked when next
 * presented), so the lists must not show one as live. The timeouts are per account: one cutoff per
 * timeout in use, compared in SQL the same way on both databases.
 */
export async function idleCutoffsOf(db: Db, projectId: string | null, now: string): Promise<IdleCutoffs> {
  const rows = await db
    .selectFrom('users')
    .select('session_idle_timeout_minutes as minutes')
    .distinct()
    .where(inRealm('users.project_id', projectId))
    .where('session_idle_timeout_minutes', 'is not', null)
    .execute();
  const at = Date.parse(now);
  return rows.map(({ minutes }) => [minutes!, new Date(at - minutes! * 60_000).toISOString()] as const);
}

function notIdle(cutoffs: IdleCutoffs) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.or([
      eb('users.session_idle_timeout_minutes', 'is', null),
      ...cutoffs.map(([minutes, usedSince]) => eb.and([eb('users.session_idle_timeout_minutes', '=', minutes), eb('sessions.last_used_at', '>=', usedSince)])),
    ]);
}

function liveSessionsQuery(db: Db, projectId: string | null, now: string, cutoffs: IdleCutoffs) {
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
      'sessions.client',
      'sessions.client_name',
      'sessions.created_at',
      'sessions.last_used_at',
      'sessions.expires_at',
    ])
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where(notIdle(cutoffs));
}

function sessionFilters(q: Partial<SessionListQuery>) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      ...(q.q ? [contains(['users.email', 'sessions.ip_address', 'devices.fingerprint'], q.q)(eb)] : []),
      within('sessions.created_at', q)(eb),
    ]);
}

/** Live sessions only: revoked, expired and idle ones are history, not something to act on. */
export async function listLiveSessions(db: Db, projectId: string | null, q: PageQuery & Partial<SessionListQuery>, now: string, filter: { userId?: string } = {}) {
  const filtered = sessionFilters(q);
  const cutoffs = await idleCutoffsOf(db, projectId, now);
  let rows = liveSessionsQuery(db, projectId, now, cutoffs).where(filtered);
  let count = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('devices', 'devices.id', 'sessions.device_id')
    .where(inRealm('users.project_id', projectId))
    .where(filtered)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where(notIdle(cutoffs));
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

/** The sessions live at `asOf`, grouped by account like the devices' export (see readDevicesForExport). */
export function readLiveSessionsForExport(db: Db, projectId: string | null, q: Partial<SessionListQuery>, asOf: string, cutoffs: IdleCutoffs) {
  const matching = liveSessionsQuery(db, projectId, asOf, cutoffs).select('users.created_at as account_created_at').where(sessionFilters(q)).where('sessions.created_at', '<=', asOf).where('users.created_at', '<=', asOf);
  return keysetRead(db, matching, { account_created_at: 'users.created_at', user_id: 'users.id', id: 'sessions.id' });
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
