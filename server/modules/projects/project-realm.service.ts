import type { Deps } from '../../deps.js';
import type { ProjectRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { MonitorScope, Realm } from '../realms/realm.js';
import { findProjectById } from './projects.repo.js';

/**
 * The realm whose accounts a monitoring scope covers, for an action that mails one of them: the
 * platform's, or the project's end users' (its settings' policy and brand; links to its website or
 * hosted pages, as its own mails).
 */
export async function realmOfScope(deps: Deps, scope: MonitorScope): Promise<Realm> {
  if (scope.projectId === null) return deps.platform;
  const project = await findProjectById(deps.db, scope.projectId);
  if (!project) throw new AppError('NOT_FOUND', 'Project not found');
  return deps.projectRealms.realmOf(project);
}

/** A project and its end users' realm, by id (an IdP's request names only a connection of the project). */
export async function projectRealmById(deps: Deps, projectId: string): Promise<{ project: ProjectRow; realm: Realm & { projectId: string } }> {
  const project = await findProjectById(deps.db, projectId);
  if (!project) throw new AppError('NOT_FOUND', 'Project not found');
  if (project.is_active !== 1) throw new AppError('FORBIDDEN', 'This project is inactive');
  return { project, realm: (await deps.projectRealms.realmOf(project)) as Realm & { projectId: string } };
}
