import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ProjectRole, ProjectRow } from '../../db/schema.js';

/** A project with its counters; only the owner's (ownerId) or any (null, for API-key lookups). */
function projectsWithCounts(db: Db) {
  return db
    .selectFrom('projects')
    .selectAll('projects')
    .select((eb) => [
      eb.selectFrom('users').whereRef('users.project_id', '=', 'projects.id').select(eb.fn.countAll<number>().as('n')).as('total_users'),
      eb
        .selectFrom('project_daily_stats')
        .whereRef('project_daily_stats.project_id', '=', 'projects.id')
        .select(sql<number>`coalesce(sum(logins), 0)`.as('n'))
        .as('total_logins'),
      eb
        .selectFrom('project_daily_stats')
        .whereRef('project_daily_stats.project_id', '=', 'projects.id')
        .select(sql<number>`coalesce(sum(signups), 0)`.as('n'))
        .as('total_signups'),
    ]);
}

export type ProjectWithCounts = ProjectRow & { total_users: number | null; total_logins: number | null; total_signups: number | null };
export type MemberProject = ProjectWithCounts & { role: ProjectRole };

/** The projects the developer is on the team of, with their role on each. */
export function memberProjects(db: Db, userId: string) {
  return projectsWithCounts(db)
    .innerJoin('project_members', (join) => join.onRef('project_members.project_id', '=', 'projects.id').on('project_members.user_id', '=', userId))
    .select('project_members.role');
}

export async function findProjectOfMember(db: Db, userId: string, id: string): Promise<MemberProject | undefined> {
  return memberProjects(db, userId).where('projects.id', '=', id).executeTakeFirst();
}
