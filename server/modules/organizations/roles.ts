import { ORG_ADMIN_ROLE, ORG_MEMBER_ROLE, SYSTEM_PERMISSIONS, type OrganizationRole } from '../../../shared/schemas/organizations.js';
import type { Db } from '../../db/connect.js';
import type { OrganizationRoleRow } from '../../db/schema.js';
import { findRole, listRoles } from './organizations.repo.js';

/** The two roles every project has without storing them. */
export const BUILT_IN_ROLES: readonly Omit<OrganizationRole, 'permissions'>[] = [
  { key: ORG_ADMIN_ROLE, name: 'Admin', description: 'Every permission of the project, now and later.', built_in: true, created_at: null },
  { key: ORG_MEMBER_ROLE, name: 'Member', description: 'No permission: a member of the organization.', built_in: true, created_at: null },
];

export const isBuiltInRole = (key: string) => key === ORG_ADMIN_ROLE || key === ORG_MEMBER_ROLE;

export function permissionsOfRow(row: Pick<OrganizationRoleRow, 'permissions'>): string[] {
  try {
    const value: unknown = JSON.parse(row.permissions);
    return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

/** Every permission key of the project: the platform's own first, then those its roles hold. */
export function projectPermissions(rows: readonly Pick<OrganizationRoleRow, 'permissions'>[]): string[] {
  const own = new Set(rows.flatMap(permissionsOfRow));
  for (const key of SYSTEM_PERMISSIONS) own.delete(key);
  return [...SYSTEM_PERMISSIONS, ...[...own].sort()];
}

/** The project's roles, the built-in two first. */
export async function rolesOfProject(db: Db, projectId: string): Promise<{ roles: OrganizationRole[]; permissions: string[] }> {
  const rows = await listRoles(db, projectId);
  const permissions = projectPermissions(rows);
  const builtIn = BUILT_IN_ROLES.map((role) => ({ ...role, permissions: role.key === ORG_ADMIN_ROLE ? permissions : [] }));
  const own = rows.map((row): OrganizationRole => ({ key: row.key, name: row.name, description: row.description, permissions: permissionsOfRow(row), built_in: false, created_at: row.created_at }));
  return { roles: [...builtIn, ...own], permissions };
}

/** What a role lets its holder do; none for a role the project no longer has. */
export async function permissionsOfRole(db: Db, projectId: string, role: string): Promise<string[]> {
  if (role === ORG_MEMBER_ROLE) return [];
  if (role === ORG_ADMIN_ROLE) return projectPermissions(await listRoles(db, projectId));
  const row = await findRole(db, projectId, role);
  return row ? permissionsOfRow(row) : [];
}

/** What each role of the project gives, read once (for a list of memberships). */
export async function permissionsByRole(db: Db, projectId: string): Promise<(role: string) => string[]> {
  const rows = await listRoles(db, projectId);
  const all = projectPermissions(rows);
  return (role) => (role === ORG_ADMIN_ROLE ? all : permissionsOfRow(rows.find((row) => row.key === role) ?? { permissions: '[]' }));
}

/** Whether the project has this role. */
export async function roleExists(db: Db, projectId: string, role: string): Promise<boolean> {
  return isBuiltInRole(role) || (await findRole(db, projectId, role)) !== undefined;
}
