import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { preparedLookup } from '../../db/prepared-lookup.js';
import { inTransaction, invalidateOnCommit } from '../../db/transaction.js';
import type { ApiKeysTable, ProjectRow, ProjectsTable } from '../../db/schema.js';
import { memberProjects, type MemberProject } from '../realms/project-access.repo.js';

/** The project with its creator as its first owner. */
export async function insertProject(db: Db, project: ProjectsTable): Promise<void> {
  await db.insertInto('projects').values(project).execute();
  await db.insertInto('project_members').values({ project_id: project.id, user_id: project.owner_id, role: 'owner', created_at: project.created_at }).execute();
}

export async function listProjectsOfMember(db: Db, userId: string): Promise<MemberProject[]> {
  return memberProjects(db, userId).orderBy('projects.created_at', 'desc').orderBy('projects.id').execute();
}

export async function countProjectsByOwner(db: Db, ownerId: string): Promise<number> {
  const row = await db.selectFrom('projects').where('owner_id', '=', ownerId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findProjectById(db: Db, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findProjectByKey(db: Db, projectKey: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('project_key', '=', projectKey).executeTakeFirst();
}

/** One project's sealed signing key, to try a master key on; undefined when there is no project. */
export async function findAnySealedSigningKey(db: Db): Promise<string | undefined> {
  return (await db.selectFrom('projects').select('signing_key').limit(1).executeTakeFirst())?.signing_key;
}

/**
 * Its keys' cached lookups carry the project (active or not, its website as the relying party), and its
 * cached settings the name, colour and logo of its mails: both are dropped once the change commits.
 */
export async function updateProject(db: Db, id: string, changes: Partial<ProjectsTable>): Promise<void> {
  await db.updateTable('projects').set(changes).where('id', '=', id).execute();
  invalidateOnCommit(db, 'api-keys');
  invalidateOnCommit(db, 'project-settings');
}


/**
 * End users carry no foreign key to their project, so they are removed here, in the same transaction.
 * Its keys stop working on every instance once it commits.
 */
export async function deleteProjectCascade(db: Db, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    invalidateOnCommit(trx, 'api-keys');
    await trx.deleteFrom('login_attempts').where('project_id', '=', id).execute();
    await trx.deleteFrom('users').where('project_id', '=', id).execute();
    await trx.deleteFrom('projects').where('id', '=', id).execute();
  });
}

export async function insertApiKey(db: Db, key: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export async function listApiKeys(db: Db, projectId: string, today: string) {
  return db
    .selectFrom('api_keys')
    .leftJoin('api_key_daily_usage', (join) => join.onRef('api_key_daily_usage.api_key_id', '=', 'api_keys.id').on('api_key_daily_usage.day', '=', today))
    .selectAll('api_keys')
    .select(sql<number>`coalesce(api_key_daily_usage.requests, 0)`.as('requests_today'))
    .where('api_keys.project_id', '=', projectId)
    .orderBy('api_keys.created_at', 'desc')
    .orderBy('api_keys.id')
    .execute();
}

export async function revokeApiKey(db: Db, projectId: string, keyId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const revoked = Number(result.numUpdatedRows) === 1;
  // The key stops working on the next request, on every instance.
  if (revoked) invalidateOnCommit(db, 'api-keys');
  return revoked;
}

export async function findApiKey(db: Db, projectId: string, keyId: string) {
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('project_id', '=', projectId).executeTakeFirst();
}

/** The live key, its project and whether the project's owner is active, by the key's hash: the per-request cost of the public API. */
export const findLiveApiKeyWithProject = preparedLookup((db: Db, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('projects', 'projects.id', 'api_keys.project_id')
    .innerJoin('users as owners', 'owners.id', 'projects.owner_id')
    .selectAll('projects')
    .select(['api_keys.id as api_key_id', 'owners.is_active as owner_is_active'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

/** A project by its public key, with whether its owner is active: the hosted pages' and the OpenID Connect provider's lookup. */
export async function findProjectWithOwnerStateByKey(db: Db, projectKey: string): Promise<(ProjectRow & { owner_is_active: number }) | undefined> {
  return db
    .selectFrom('projects')
    .innerJoin('users as owners', 'owners.id', 'projects.owner_id')
    .selectAll('projects')
    .select('owners.is_active as owner_is_active')
    .where('projects.project_key', '=', projectKey)
    .executeTakeFirst();
}

export async function touchApiKey(db: Db, keyId: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId).execute();
}

/** The dashboard's counts over every project the developer is on the team of. */
export async function memberTotals(db: Db, userId: string, days: { today: string; monthStart: string; weekStart: string }) {
  const { today, monthStart, weekStart } = days;
  const projects = db.selectFrom('project_members').select('project_id as id').where('user_id', '=', userId);
  const [p, k, u, r, week] = await Promise.all([
    db
      .selectFrom('projects')
      .where('id', 'in', projects)
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(eb.case().when('is_active', '=', 1).then(1).else(0).end()).as('active')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('api_keys')
      .where('project_id', 'in', projects)
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(eb.case().when('revoked_at', 'is', null).then(1).else(0).end()).as('active')])
      .executeTakeFirstOrThrow(),
    db.selectFrom('users').where('project_id', 'in', projects).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('project_daily_stats')
      .where('project_id', 'in', projects)
      .where('day', '>=', monthStart)
      .select([
        sql<number>`coalesce(sum(api_requests), 0)`.as('month'),
        sql<number>`coalesce(sum(case when day = ${today} then api_requests else 0 end), 0)`.as('today'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('project_daily_stats')
      .where('project_id', 'in', projects)
      .where('day', '>=', weekStart)
      .select(['day', sql<number>`coalesce(sum(api_requests), 0)`.as('requests')])
      .groupBy('day')
      .execute(),
  ]);
  return { projects: p, keys: k, users: Number(u.n), requests: r, week };
}
