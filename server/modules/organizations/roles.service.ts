import type { z } from 'zod';
import {
  DEFAULT_MAX_ORGANIZATIONS_PER_USER,
  MAX_CUSTOM_ROLES,
  ORGANIZATION_MESSAGES,
  type CreateRoleInputSchema,
  type OrganizationRole,
  type OrganizationSettings,
  type UpdateOrganizationSettingsInputSchema,
  type UpdateRoleInputSchema,
} from '../../../shared/schemas/organizations.js';
import type { Deps } from '../../deps.js';
import { lockUntilCommit, withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { changedFields, recordChange, type AuditActor } from '../changes/record-change.js';
import { validateCustomClaims } from './custom-claims.js';
import { findOrganizationSettings, saveOrganizationSettings } from './organization-settings.repo.js';
import { deleteRole, findRole, insertRole, listRoles, roleInUse, updateRole } from './organizations.repo.js';
import { isBuiltInRole, permissionsOfRow, rolesOfProject } from './roles.js';

/** A project's organization roles and settings, as its team manages them in the dashboard (or over REST). */

export const listOrganizationRoles = (deps: Deps, projectId: string) => rolesOfProject(deps.db, projectId);

const toRole = (row: { key: string; name: string; description: string | null; permissions: string; created_at: string }): OrganizationRole => ({
  key: row.key,
  name: row.name,
  description: row.description,
  permissions: permissionsOfRow(row),
  built_in: false,
  created_at: row.created_at,
});

export async function createOrganizationRole(deps: Deps, projectId: string, actor: AuditActor, input: z.output<typeof CreateRoleInputSchema>): Promise<OrganizationRole> {
  if (isBuiltInRole(input.key)) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.roleKeyTaken);
  return withTransaction(deps, async (tx) => {
    await lockUntilCommit(tx.db, tx.dialect, `organization-roles:${projectId}`);
    if (await findRole(tx.db, projectId, input.key)) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.roleKeyTaken);
    if ((await listRoles(tx.db, projectId)).length >= MAX_CUSTOM_ROLES) throw new AppError('CONFLICT', `A project can have at most ${MAX_CUSTOM_ROLES} roles of its own`);
    const now = isoNow(deps.clock);
    const row = { id: newId(), project_id: projectId, key: input.key, name: input.name, description: input.description, permissions: JSON.stringify(input.permissions), created_at: now, updated_at: now };
    await insertRole(tx.db, row);
    await recordChange(tx, actor, { projectId, action: 'organization_role.created', target: { type: 'organization_role', id: row.key, label: row.name }, after: { key: row.key, name: row.name, permissions: input.permissions } });
    return toRole(row);
  });
}

async function requireOwnRole(deps: Pick<Deps, 'db'>, projectId: string, key: string) {
  if (isBuiltInRole(key)) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.builtInRole);
  const row = await findRole(deps.db, projectId, key);
  if (!row) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.roleNotFound);
  return row;
}

/** Changing a role's permissions reaches its holders' tokens at their next refresh. */
export async function updateOrganizationRole(deps: Deps, projectId: string, actor: AuditActor, key: string, input: z.output<typeof UpdateRoleInputSchema>): Promise<OrganizationRole> {
  return withTransaction(deps, async (tx) => {
    const row = await requireOwnRole(tx, projectId, key);
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.permissions !== undefined && { permissions: JSON.stringify(input.permissions) }),
      updated_at: isoNow(deps.clock),
    };
    await updateRole(tx.db, row.id, changes);
    const before = toRole(row);
    const after = toRole({ ...row, ...changes });
    const diff = changedFields({ name: before.name, description: before.description, permissions: before.permissions }, { name: after.name, description: after.description, permissions: after.permissions });
    if (Object.keys(diff.after).length > 0) {
      await recordChange(tx, actor, { projectId, action: 'organization_role.updated', target: { type: 'organization_role', id: row.key, label: after.name }, ...diff });
    }
    return after;
  });
}

/** 409 while members hold the role; pending invitations with it give org:member when accepted. */
export async function deleteOrganizationRole(deps: Deps, projectId: string, actor: AuditActor, key: string): Promise<{ message: string }> {
  await withTransaction(deps, async (tx) => {
    const row = await requireOwnRole(tx, projectId, key);
    if (await roleInUse(tx.db, projectId, key)) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.roleInUse);
    await deleteRole(tx.db, row.id);
    await recordChange(tx, actor, { projectId, action: 'organization_role.deleted', target: { type: 'organization_role', id: row.key, label: row.name }, before: { key: row.key, name: row.name, permissions: permissionsOfRow(row) } });
  });
  return { message: 'Role deleted' };
}

function toSettings(row: Awaited<ReturnType<typeof findOrganizationSettings>>): OrganizationSettings {
  let customClaims: Record<string, unknown> | null = null;
  try {
    customClaims = row?.custom_claims ? (JSON.parse(row.custom_claims) as Record<string, unknown>) : null;
  } catch {
    customClaims = null;
  }
  return {
    self_service_creation: row?.organizations_self_service === 1,
    max_organizations_per_user: row?.max_organizations_per_user ?? DEFAULT_MAX_ORGANIZATIONS_PER_USER,
    custom_claims: customClaims,
  };
}

export async function getOrganizationSettings(deps: Deps, projectId: string): Promise<OrganizationSettings> {
  return toSettings(await findOrganizationSettings(deps.db, projectId));
}

/** A custom-claims template is checked before it is saved (validateCustomClaims); tokens issued from then on carry it. */
export async function updateOrganizationSettings(deps: Deps, projectId: string, actor: AuditActor, input: z.output<typeof UpdateOrganizationSettingsInputSchema>): Promise<OrganizationSettings> {
  if (input.custom_claims) validateCustomClaims(input.custom_claims);
  return withTransaction(deps, async (tx) => {
    const before = toSettings(await findOrganizationSettings(tx.db, projectId));
    const after: OrganizationSettings = {
      self_service_creation: input.self_service_creation ?? before.self_service_creation,
      max_organizations_per_user: input.max_organizations_per_user ?? before.max_organizations_per_user,
      custom_claims: input.custom_claims === undefined ? before.custom_claims : input.custom_claims,
    };
    await saveOrganizationSettings(tx.db, projectId, {
      organizations_self_service: after.self_service_creation ? 1 : 0,
      max_organizations_per_user: after.max_organizations_per_user,
      custom_claims: after.custom_claims ? JSON.stringify(after.custom_claims) : null,
      updated_at: isoNow(deps.clock),
    });
    const diff = changedFields(before, after);
    if (Object.keys(diff.after).length > 0) {
      await recordChange(tx, actor, { projectId, action: 'organization_settings.updated', target: { type: 'project', id: projectId }, ...diff });
    }
    return after;
  });
}
