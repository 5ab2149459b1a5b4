import type { Deps } from '../../deps.js';
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
