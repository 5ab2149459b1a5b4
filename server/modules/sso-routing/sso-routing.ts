import { SSO_MESSAGES } from '../../../shared/schemas/sso.js';
import type { Db } from '../../db/connect.js';
import type { SsoConnectionRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { findConnectionByVerifiedDomain } from './sso-routing.repo.js';

/**
 * Which enterprise connection an address belongs to (home-realm discovery): its domain verified for an
 * enabled connection of the project. A leaf, so the account core (auth's password sign-in) may ask it
 * without depending on the SSO area above it.
 */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function connectionForEmail(db: Db, projectId: string, email: string): Promise<SsoConnectionRow | undefined> {
  return findConnectionByVerifiedDomain(db, projectId, domainOf(email));
}

/** 403 when the address's organization signs in through its IdP only (`enforce` on its connection). */
export async function requirePasswordAllowed(db: Db, projectId: string | null, email: string): Promise<void> {
  if (projectId === null) return;
  const connection = await connectionForEmail(db, projectId, email);
  if (connection?.enforce === 1) throw new AppError('FORBIDDEN', SSO_MESSAGES.enforced);
}
