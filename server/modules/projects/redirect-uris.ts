import { isLoopbackRedirectPattern, matchesLoopbackRedirectPattern } from '../../../shared/loopback-redirect.js';
import type { Environment, ProjectRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/**
 * Whether the project registered `candidate` in `registered` (its redirect_uris or
 * post_logout_redirect_uris): exactly, or by a loopback pattern while the project is in development.
 * A pattern is never an address itself, so it is not compared as one.
 */
export function isRegisteredRedirect(project: Pick<ProjectRow, 'environment'>, registered: string, candidate: string): boolean {
  const entries = urlListOf(registered);
  if (entries.some((entry) => entry === candidate && !isLoopbackRedirectPattern(entry))) return true;
  return project.environment === 'development' && entries.some((entry) => matchesLoopbackRedirectPattern(entry, candidate));
}

/** Loopback patterns are registered on development projects only; elsewhere every address is exact. */
export function requirePatternsOnlyInDevelopment(environment: Environment, lists: Array<string[] | undefined>): void {
  if (environment === 'development') return;
  const pattern = lists.flatMap((list) => list ?? []).find(isLoopbackRedirectPattern);
  if (pattern) {
    throw new AppError(
      'UNPROCESSABLE_CONTENT',
      `${pattern}: an address with any port is for development projects only; a ${environment} project registers each address exactly`,
    );
  }
}

/** A project's stored list of addresses (a JSON array of strings); anything else reads as none. */
export function urlListOf(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
