import type { Migration } from 'kysely';
import * as createAccounts from './2026_11_22_0300_create_accounts.js';
import * as createProjects from './2026_11_22_0400_create_projects.js';

/** Every migration, in order. Listed statically so they run the same under tsx, tests and bundlers. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0300_create_accounts': createAccounts,
  '2026_11_22_0400_create_projects': createProjects,
};
