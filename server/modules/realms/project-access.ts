import { roleAllows, TEAM_MESSAGES, type ProjectRole } from '../../../shared/schemas/teams.js';
import { isEffectiveAdmin } from '../../../shared/schemas/user.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { MonitorScope } from './realm.js';
import { findProjectOfMember, type MemberProject } from './project-access.repo.js';

/**
 * The one check every project route goes through: the caller must be on the project's team with at
 * least `needed`. A project the caller is not on answers exactly like a missing one (404); a role
 * too low for the action is a 403.
 */
export async function requireProjectRole(deps: Pick<Deps, 'db'>, user: UserRow, projectId: string, needed: ProjectRole): Promise<MemberProject> {
  const project = await findProjectOfMember(deps.db, user.id, projectId);
  if (!project) throw new AppError('NOT_FOUND', 'Project not found');
  if (!roleAllows(project.role, needed)) throw new AppError('FORBIDDEN', TEAM_MESSAGES.forbidden);
  return project;
}

/** The monitoring scope of a project (its end users), for a caller with at least `needed` on its team. */
export async function projectScopeOf(deps: Pick<Deps, 'db'>, user: UserRow, projectId: string, needed: ProjectRole): Promise<MonitorScope> {
  return { projectId: (await requireProjectRole(deps, user, projectId, needed)).id };
}

/** Reads need a viewer, changes an admin: how the monitoring and audit routes map their kind to a role. */
export const roleForReading = (reads: boolean): ProjectRole => (reads ? 'viewer' : 'admin');

export const ADMIN_REQUIRED = 'Admin access required';

/** The admin area, on both transports: the admin role counts only once the account's e-mail address is verified. */
export function requireAdmin(user: UserRow): void {
  if (!isEffectiveAdmin({ role: user.role, is_verified: user.is_verified === 1 })) throw new AppError('FORBIDDEN', ADMIN_REQUIRED);
}
