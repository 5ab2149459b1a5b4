import type { z } from 'zod';
import {
  MEMBERS_MANAGE,
  ORG_ADMIN_ROLE,
  ORG_MEMBER_ROLE,
  ORGANIZATION_INVITATION_TTL_DAYS,
  ORGANIZATION_MESSAGES,
  slugFrom,
  type AddMemberInputSchema,
  type CreateInvitationInputSchema,
  type CreateOrganizationInputSchema,
  type CreateOwnOrganizationInputSchema,
  type MyOrganization,
  type Organization,
  type OrganizationInvitation,
  type OrganizationMember,
  type OrganizationListQuerySchema,
  type UpdateOrganizationInputSchema,
} from '../../../shared/schemas/organizations.js';
import type { Deps } from '../../deps.js';
import type { OrganizationInvitationRow, OrganizationRow, UserRow } from '../../db/schema.js';
import { lockUntilCommit, withTransaction, type Tx } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoIn, isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import { normalizeEmail } from '../../lib/email.js';
import { parseMetadata } from '../../lib/metadata.js';
import { appLink, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { organizationInvitationMail } from '../../mail/templates.js';
import { changedFields, recordChange, type AuditActor } from '../changes/record-change.js';
import type { Realm } from '../realms/realm.js';
import * as repo from './organizations.repo.js';
import { permissionsByRole, permissionsOfRole, roleExists, rolesOfProject } from './roles.js';
import { requireEndUser } from './user-metadata.service.js';

/**
 * Organizations of a project's end users, their members and invitations. The project's backend (API
 * key) and its team (dashboard) manage everything; an end user acts on their own organizations within
 * their role's permissions. Every change is audited and sent to the project's webhooks in its own
 * transaction.
 */

/** At most this many invitations wait at once in one organization. */
export const MAX_PENDING_INVITATIONS = 100;
const { notFound, memberNotFound, invitationNotFound } = ORGANIZATION_MESSAGES;

export function toOrganization(row: OrganizationRow, membersCount: number): Organization {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo_url: row.logo_url,
    public_metadata: parseMetadata(row.public_metadata),
    private_metadata: parseMetadata(row.private_metadata),
    members_count: membersCount,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toInvitation(row: OrganizationInvitationRow, now: string): OrganizationInvitation {
  return {
    id: row.id,
    organization_id: row.organization_id,
    email: row.email,
    role: row.role,
    status: row.accepted_at ? 'accepted' : row.expires_at <= now ? 'expired' : 'pending',
    inviter_user_id: row.inviter_user_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    accepted_at: row.accepted_at,
  };
}

/** What webhooks are told of an organization: everything but its private metadata. */
const eventOrganization = (organization: Organization) => {
  const { private_metadata: _private, ...shown } = organization;
  return shown;
};

async function requireOrganization(deps: Pick<Deps, 'db'>, projectId: string, organizationId: string): Promise<OrganizationRow> {
  const organization = await repo.findOrganization(deps.db, projectId, organizationId);
  if (!organization) throw new AppError('NOT_FOUND', notFound);
  return organization;
}

async function requireRole(deps: Pick<Deps, 'db'>, projectId: string, role: string): Promise<void> {
  if (!(await roleExists(deps.db, projectId, role))) throw new AppError('UNPROCESSABLE_CONTENT', ORGANIZATION_MESSAGES.unknownRole);
}

/** Under a lock on the user until commit: one more membership must stay within the project's limit. */
async function requireRoomFor(tx: Tx<Deps>, realm: Pick<Realm, 'policy'>, userId: string): Promise<void> {
  await lockUntilCommit(tx.db, tx.dialect, `organization-memberships:${userId}`);
  const max = realm.policy.organizations.maxPerUser;
  if ((await repo.countMembershipsOfUser(tx.db, userId)) >= max) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.tooManyOrganizations(max));
}

/** The slug asked for, or one made from the name with a number added until it is free; 409 for a taken slug that was asked for. */
async function freeSlug(tx: Tx<Deps>, projectId: string, name: string, asked: string | undefined, exceptId?: string): Promise<string> {
  await lockUntilCommit(tx.db, tx.dialect, `organization-slugs:${projectId}`);
  const taken = async (slug: string) => {
    const found = await repo.findOrganizationBySlug(tx.db, projectId, slug);
    return found !== undefined && found.id !== exceptId;
  };
  if (asked !== undefined) {
    if (await taken(asked)) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.slugTaken);
    return asked;
  }
  const base = slugFrom(name);
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base.slice(0, 60)}-${n}`;
    if (!(await taken(slug))) return slug;
  }
}

export async function listOrganizations(deps: Deps, projectId: string, query: z.output<typeof OrganizationListQuerySchema>) {
  const { rows, total } = await repo.listOrganizations(deps.db, projectId, query);
  return { organizations: rows.map((row) => toOrganization(row, Number(row.members_count ?? 0))), total };
}

export async function getOrganization(deps: Deps, projectId: string, organizationId: string): Promise<Organization> {
  const organization = await requireOrganization(deps, projectId, organizationId);
  return toOrganization(organization, await repo.countMembers(deps.db, organization.id));
}

/** Creates an organization; `created_by` (an end user of the project) becomes its first org:admin. */
export async function createOrganization(
  deps: Deps,
  realm: Realm & { projectId: string },
  actor: AuditActor,
  input: z.output<typeof CreateOrganizationInputSchema>,
): Promise<Organization> {
  const { projectId } = realm;
  if (input.created_by) await requireEndUser(deps, projectId, input.created_by);
  return withTransaction(deps, async (tx) => {
    const now = isoNow(deps.clock);
    const row: OrganizationRow = {
      id: newId(),
      project_id: projectId,
      name: input.name,
      slug: await freeSlug(tx, projectId, input.name, input.slug),
      logo_url: input.logo_url ?? null,
      public_metadata: JSON.stringify(input.public_metadata ?? {}),
      private_metadata: JSON.stringify(input.private_metadata ?? {}),
      created_at: now,
      updated_at: now,
    };
    await repo.insertOrganization(tx.db, row);
    if (input.created_by) {
      await requireRoomFor(tx, realm, input.created_by);
      await repo.insertMember(tx.db, { organization_id: row.id, user_id: input.created_by, role: ORG_ADMIN_ROLE, joined_at: now });
    }
    const organization = toOrganization(row, input.created_by ? 1 : 0);
    const event = { type: 'organization.created', data: { organization: eventOrganization(organization) } } as const;
    await recordChange(tx, actor, { projectId, action: 'organization.created', target: organizationTarget(row), after: { name: row.name, slug: row.slug }, event });
    if (input.created_by) await membershipCreated(tx, projectId, actor, row, input.created_by, ORG_ADMIN_ROLE);
    return organization;
  });
}

export async function updateOrganization(deps: Deps, projectId: string, actor: AuditActor, organizationId: string, input: z.output<typeof UpdateOrganizationInputSchema>): Promise<Organization> {
  return withTransaction(deps, async (tx) => {
    const before = await requireOrganization(tx, projectId, organizationId);
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.slug !== undefined && input.slug !== before.slug && { slug: await freeSlug(tx, projectId, before.name, input.slug, before.id) }),
      ...(input.logo_url !== undefined && { logo_url: input.logo_url }),
      ...(input.public_metadata !== undefined && { public_metadata: JSON.stringify(input.public_metadata) }),
      ...(input.private_metadata !== undefined && { private_metadata: JSON.stringify(input.private_metadata) }),
      updated_at: isoNow(deps.clock),
    };
    await repo.updateOrganization(tx.db, before.id, changes);
    const after = { ...before, ...changes };
    const organization = toOrganization(after, await repo.countMembers(tx.db, before.id));
    const was = toOrganization(before, organization.members_count);
    const { before: old, after: now } = changedFields(
      { name: was.name, slug: was.slug, logo_url: was.logo_url, public_metadata: was.public_metadata, private_metadata: was.private_metadata },
      { name: organization.name, slug: organization.slug, logo_url: organization.logo_url, public_metadata: organization.public_metadata, private_metadata: organization.private_metadata },
    );
    if (Object.keys(now).length > 0) {
      const event = { type: 'organization.updated', data: { organization: eventOrganization(organization), changed: Object.keys(now) } } as const;
      await recordChange(tx, actor, { projectId, action: 'organization.updated', target: organizationTarget(organization), before: old, after: now, event });
    }
    return organization;
  });
}

/** Deletes an organization with its memberships and invitations; sessions in it carry no organization from their next token on. */
export async function deleteOrganization(deps: Deps, projectId: string, actor: AuditActor, organizationId: string): Promise<{ message: string }> {
  await withTransaction(deps, async (tx) => {
    const organization = await requireOrganization(tx, projectId, organizationId);
    await repo.deleteOrganization(tx.db, organization.id);
    const event = { type: 'organization.deleted', data: { organization: { id: organization.id, slug: organization.slug, name: organization.name } } } as const;
    await recordChange(tx, actor, { projectId, action: 'organization.deleted', target: organizationTarget(organization), before: { name: organization.name, slug: organization.slug }, event });
  });
  return { message: 'Organization deleted' };
}

export async function listMembers(deps: Deps, projectId: string, organizationId: string): Promise<{ members: OrganizationMember[] }> {
  const organization = await requireOrganization(deps, projectId, organizationId);
  return { members: await repo.listMembers(deps.db, organization.id) };
}

const organizationTarget = (organization: Pick<OrganizationRow, 'id' | 'name'>) => ({ type: 'organization', id: organization.id, label: organization.name });
const eventReference = (organization: Pick<OrganizationRow, 'id' | 'slug'>) => ({ id: organization.id, slug: organization.slug });

function membershipCreated(tx: Tx<Deps>, projectId: string, actor: AuditActor, organization: OrganizationRow, userId: string, role: string): Promise<void> {
  const event = { type: 'organization_membership.created', data: { organization: eventReference(organization), user_id: userId, role } } as const;
  return recordChange(tx, actor, { projectId, action: 'organization_member.added', target: organizationTarget(organization), after: { user_id: userId, role }, event });
}

function memberRoleChanged(tx: Tx<Deps>, projectId: string, actor: AuditActor, organization: OrganizationRow, userId: string, previousRole: string, role: string): Promise<void> {
  const event = { type: 'organization_membership.updated', data: { organization: eventReference(organization), user_id: userId, role, previous_role: previousRole } } as const;
  const change = { before: { user_id: userId, role: previousRole }, after: { user_id: userId, role }, event };
  return recordChange(tx, actor, { projectId, action: 'organization_member.role_changed', target: organizationTarget(organization), ...change });
}

export async function addMember(deps: Deps, realm: Realm & { projectId: string }, actor: AuditActor, organizationId: string, input: z.output<typeof AddMemberInputSchema>): Promise<OrganizationMember> {
  const { projectId } = realm;
  await requireEndUser(deps, projectId, input.user_id);
  await requireRole(deps, projectId, input.role);
  return withTransaction(deps, async (tx) => {
    const organization = await requireOrganization(tx, projectId, organizationId);
    if (await repo.findMember(tx.db, organization.id, input.user_id)) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.alreadyMember);
    await requireRoomFor(tx, realm, input.user_id);
    await repo.insertMember(tx.db, { organization_id: organization.id, user_id: input.user_id, role: input.role, joined_at: isoNow(deps.clock) });
    await membershipCreated(tx, projectId, actor, organization, input.user_id, input.role);
    return (await repo.findMember(tx.db, organization.id, input.user_id))!;
  });
}

export async function changeMemberRole(deps: Deps, projectId: string, actor: AuditActor, organizationId: string, userId: string, role: string): Promise<OrganizationMember> {
  await requireRole(deps, projectId, role);
  return withTransaction(deps, async (tx) => {
    const organization = await requireOrganization(tx, projectId, organizationId);
    const member = await repo.findMember(tx.db, organization.id, userId);
    if (!member) throw new AppError('NOT_FOUND', memberNotFound);
    if (member.role === role) return member;
    await repo.updateMemberRole(tx.db, organization.id, userId, role, isoNow(deps.clock));
    await memberRoleChanged(tx, projectId, actor, organization, userId, member.role, role);
    return { ...member, role };
  });
}

/** Takes a member out; their sessions in the organization lose its claims at the next refresh. */
export async function removeMember(deps: Deps, projectId: string, actor: AuditActor, organizationId: string, userId: string, guard?: { keepAnAdmin: true }): Promise<{ message: string }> {
  await withTransaction(deps, async (tx) => {
    const organization = await requireOrganization(tx, projectId, organizationId);
    await lockUntilCommit(tx.db, tx.dialect, `organization-members:${organization.id}`);
    const member = await repo.findMember(tx.db, organization.id, userId);
    if (!member) throw new AppError('NOT_FOUND', memberNotFound);
    if (guard?.keepAnAdmin && member.role === ORG_ADMIN_ROLE && (await repo.countMembersWithRole(tx.db, organization.id, ORG_ADMIN_ROLE)) <= 1) {
      throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.lastAdmin);
    }
    await repo.deleteMember(tx.db, organization.id, userId);
    const event = { type: 'organization_membership.deleted', data: { organization: eventReference(organization), user_id: userId, role: member.role } } as const;
    await recordChange(tx, actor, { projectId, action: 'organization_member.removed', target: organizationTarget(organization), before: { user_id: userId, role: member.role }, event });
  });
  return { message: 'Member removed' };
}

export async function listInvitations(deps: Deps, projectId: string, organizationId: string): Promise<{ invitations: OrganizationInvitation[] }> {
  const organization = await requireOrganization(deps, projectId, organizationId);
  const now = isoNow(deps.clock);
  return { invitations: (await repo.listInvitations(deps.db, organization.id)).map((row) => toInvitation(row, now)) };
}

/**
 * Invites an address into an organization with a role: a one-time link (7 days) mailed in the
 * project's name, under the realm's link base (`/accept-invitation?token=`). Inviting an address again
 * replaces its pending invitation. `inviter` is the end user who invited, null for the project's side.
 */
export async function createInvitation(
  deps: Deps,
  realm: Realm & { projectId: string },
  actor: AuditActor,
  organizationId: string,
  input: z.output<typeof CreateInvitationInputSchema>,
  inviter: Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name'> | null,
): Promise<OrganizationInvitation> {
  const { projectId } = realm;
  const { email } = input;
  await requireRole(deps, projectId, input.role);
  const organization = await requireOrganization(deps, projectId, organizationId);
  if (await repo.hasMemberWithEmail(deps.db, organization.id, email)) throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.alreadyMember);
  const now = isoNow(deps.clock);
  if ((await repo.countPendingInvitations(deps.db, organization.id, now)) >= MAX_PENDING_INVITATIONS) {
    throw new AppError('CONFLICT', `An organization can have at most ${MAX_PENDING_INVITATIONS} pending invitations`);
  }
  const token = randomToken();
  const row: OrganizationInvitationRow = {
    id: newId(),
    organization_id: organization.id,
    email,
    role: input.role,
    token_hash: sha256(token),
    inviter_user_id: inviter?.id ?? null,
    created_at: now,
    expires_at: isoIn(deps.clock, ORGANIZATION_INVITATION_TTL_DAYS * 24 * 60 * 60),
    accepted_at: null,
    accepted_by: null,
  };
  const mayMail = await withinMailCap(deps, 'organization_invitation', email);
  await withTransaction(deps, async (tx) => {
    const pending = await repo.findPendingInvitationTo(tx.db, organization.id, email, now);
    if (pending) await repo.deleteInvitation(tx.db, pending.id);
    await repo.insertInvitation(tx.db, row);
    const invitation = { id: row.id, email, role: row.role, expires_at: row.expires_at, inviter_user_id: row.inviter_user_id };
    const event = { type: 'organization_invitation.created', data: { invitation, organization: eventReference(organization) } } as const;
    await recordChange(tx, actor, { projectId, action: 'organization_invitation.created', target: organizationTarget(organization), after: { email, role: input.role }, event });
    const inviterName = inviter ? [inviter.first_name, inviter.last_name].filter(Boolean).join(' ') || inviter.email : null;
    const mail = organizationInvitationMail(
      email,
      { organization: organization.name, inviter: inviterName, role: input.role, url: appLink(realm, '/accept-invitation', token), days: ORGANIZATION_INVITATION_TTL_DAYS },
      realm.policy.mail,
    );
    if (mayMail) await queueCappedMail(tx, 'organization_invitation', mail, { projectId, userId: null });
  });
  return toInvitation(row, now);
}

export async function revokeInvitation(deps: Deps, projectId: string, actor: AuditActor, organizationId: string, invitationId: string): Promise<{ message: string }> {
  await withTransaction(deps, async (tx) => {
    const organization = await requireOrganization(tx, projectId, organizationId);
    const invitation = await repo.findInvitation(tx.db, organization.id, invitationId);
    if (!invitation) throw new AppError('NOT_FOUND', invitationNotFound);
    await repo.deleteInvitation(tx.db, invitation.id);
    await recordChange(tx, actor, { projectId, action: 'organization_invitation.revoked', target: organizationTarget(organization), before: { email: invitation.email, role: invitation.role } });
  });
  return { message: 'Invitation revoked' };
}

/** An end user's memberships, for the project's team (the user's page). */
export async function organizationsOfUser(deps: Deps, projectId: string, userId: string) {
  await requireEndUser(deps, projectId, userId);
  const rows = await repo.listMembershipsOfUser(deps.db, userId);
  return { organizations: rows.map(({ id, name, slug, role, joined_at }) => ({ id, name, slug, role, joined_at })) };
}

// The end user's side.

const endUserActor = (user: Pick<UserRow, 'id' | 'email'>, info: AuditActor['info']): AuditActor => ({ user: { id: user.id, email: user.email }, info });

/** The signed-in end user's organizations, the one the session is in, and whether they may create one. */
export async function myOrganizations(deps: Deps, realm: Realm & { projectId: string }, user: Pick<UserRow, 'id'>, activeOrganizationId: string | null) {
  const [rows, permissionsOf] = await Promise.all([repo.listMembershipsOfUser(deps.db, user.id), permissionsByRole(deps.db, realm.projectId)]);
  const organizations: MyOrganization[] = rows.map((row) => ({ ...row, public_metadata: parseMetadata(row.public_metadata), permissions: permissionsOf(row.role) }));
  const active = organizations.some((organization) => organization.id === activeOrganizationId) ? activeOrganizationId : null;
  const canCreate = realm.policy.organizations.selfService && rows.length < realm.policy.organizations.maxPerUser;
  return { organizations, active_organization_id: active, can_create: canCreate };
}

/** A member's role and permissions in an organization; 404 for anyone else (a non-member learns nothing of it). */
async function requireMembership(deps: Pick<Deps, 'db'>, projectId: string, organizationId: string, userId: string) {
  const organization = await repo.findOrganization(deps.db, projectId, organizationId);
  const member = organization && (await repo.findMember(deps.db, organization.id, userId));
  if (!organization || !member) throw new AppError('NOT_FOUND', notFound);
  return { organization, role: member.role, permissions: await permissionsOfRole(deps.db, projectId, member.role) };
}

/** What a member may do on the end-user routes: 403 without the permission. */
async function requirePermission(deps: Pick<Deps, 'db'>, projectId: string, organizationId: string, userId: string, permission: string) {
  const membership = await requireMembership(deps, projectId, organizationId, userId);
  if (!membership.permissions.includes(permission)) throw new AppError('FORBIDDEN', ORGANIZATION_MESSAGES.forbidden);
  return membership;
}

export async function createOwnOrganization(
  deps: Deps,
  realm: Realm & { projectId: string },
  user: UserRow,
  info: AuditActor['info'],
  input: z.output<typeof CreateOwnOrganizationInputSchema>,
): Promise<MyOrganization> {
  if (!realm.policy.organizations.selfService) throw new AppError('FORBIDDEN', ORGANIZATION_MESSAGES.selfServiceOff);
  const organization = await createOrganization(deps, realm, endUserActor(user, info), { ...input, created_by: user.id });
  return { ...organization, role: ORG_ADMIN_ROLE, permissions: await permissionsOfRole(deps.db, realm.projectId, ORG_ADMIN_ROLE), joined_at: organization.created_at };
}

export async function membersAsMember(deps: Deps, projectId: string, user: Pick<UserRow, 'id'>, organizationId: string): Promise<{ members: OrganizationMember[] }> {
  const { organization } = await requireMembership(deps, projectId, organizationId, user.id);
  return { members: await repo.listMembers(deps.db, organization.id) };
}

/**
 * A member with members:manage invites someone, with a role that gives no permission they do not hold
 * themselves (nobody hands out more than they have).
 */
export async function inviteAsMember(
  deps: Deps,
  realm: Realm & { projectId: string },
  user: UserRow,
  info: AuditActor['info'],
  organizationId: string,
  input: z.output<typeof CreateInvitationInputSchema>,
): Promise<OrganizationInvitation> {
  const membership = await requirePermission(deps, realm.projectId, organizationId, user.id, MEMBERS_MANAGE);
  await requireRole(deps, realm.projectId, input.role);
  const given = await permissionsOfRole(deps.db, realm.projectId, input.role);
  if (!mayGive(membership, input.role, given)) throw new AppError('FORBIDDEN', ORGANIZATION_MESSAGES.forbidden);
  return createInvitation(deps, realm, endUserActor(user, info), organizationId, input, user);
}

/** Whether a member may hand out a role: an org:admin any, anyone else one giving no permission they lack (never org:admin). */
function mayGive(membership: { role: string; permissions: string[] }, role: string, given: readonly string[]): boolean {
  if (membership.role === ORG_ADMIN_ROLE) return true;
  return role !== ORG_ADMIN_ROLE && given.every((permission) => membership.permissions.includes(permission));
}

/** The roles a member with members:manage may invite with (what the invitation form offers); 403 without the permission. */
export async function assignableRoles(deps: Pick<Deps, 'db'>, projectId: string, user: Pick<UserRow, 'id'>, organizationId: string) {
  const membership = await requirePermission(deps, projectId, organizationId, user.id, MEMBERS_MANAGE);
  const { roles } = await rolesOfProject(deps.db, projectId);
  return { roles: roles.filter((role) => mayGive(membership, role.key, role.permissions)).map(({ key, name, permissions }) => ({ key, name, permissions })) };
}

/** A member leaves (their own id), or one with members:manage removes someone; the last org:admin stays. */
export async function removeAsMember(deps: Deps, realm: Realm & { projectId: string }, user: UserRow, info: AuditActor['info'], organizationId: string, userId: string): Promise<{ message: string }> {
  if (userId === user.id) await requireMembership(deps, realm.projectId, organizationId, user.id);
  else {
    const membership = await requirePermission(deps, realm.projectId, organizationId, user.id, MEMBERS_MANAGE);
    const target = await repo.findMember(deps.db, organizationId, userId);
    if (target && target.role === ORG_ADMIN_ROLE && membership.role !== ORG_ADMIN_ROLE) throw new AppError('FORBIDDEN', ORGANIZATION_MESSAGES.forbidden);
  }
  return removeMember(deps, realm.projectId, endUserActor(user, info), organizationId, userId, { keepAnAdmin: true });
}

async function findUsableInvitation(deps: Pick<Deps, 'db' | 'clock'>, projectId: string, token: string) {
  const invitation = await repo.findInvitationByTokenHash(deps.db, sha256(token));
  if (!invitation || invitation.project_id !== projectId) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.invitationInvalid);
  if (invitation.accepted_at) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.invitationUsed);
  if (invitation.expires_at <= isoNow(deps.clock)) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.invitationInvalid);
  return invitation;
}

/** What an invitation link shows before it is accepted (the hosted page), to anyone holding it. */
export async function previewInvitation(deps: Deps, projectId: string, token: string) {
  const invitation = await findUsableInvitation(deps, projectId, token);
  return {
    organization: { id: invitation.organization_id, name: invitation.organization_name, slug: invitation.organization_slug, logo_url: invitation.organization_logo_url },
    email: invitation.email,
    role: invitation.role,
    expires_at: invitation.expires_at,
  };
}

/**
 * The signed-in end user accepts an invitation sent to their address: they join with its role (a
 * role removed since gives org:member). 400 for an unknown, expired, used or other address's one.
 */
export async function acceptInvitation(deps: Deps, realm: Realm & { projectId: string }, user: UserRow, info: AuditActor['info'], token: string): Promise<MyOrganization> {
  const { projectId } = realm;
  const invitation = await findUsableInvitation(deps, projectId, token);
  if (normalizeEmail(user.email) !== invitation.email) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.invitationOtherEmail);
  const role = (await roleExists(deps.db, projectId, invitation.role)) ? invitation.role : ORG_MEMBER_ROLE;
  const actor = endUserActor(user, info);
  await withTransaction(deps, async (tx) => {
    if (!(await repo.spendInvitation(tx.db, invitation.id, user.id, isoNow(deps.clock)))) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.invitationUsed);
    const organization = await requireOrganization(tx, projectId, invitation.organization_id);
    const data = { invitation: { id: invitation.id, email: invitation.email, role }, organization: eventReference(organization), user_id: user.id };
    const event = { type: 'organization_invitation.accepted', data } as const;
    await recordChange(tx, actor, { projectId, action: 'organization_invitation.accepted', target: organizationTarget(organization), after: { email: invitation.email, role }, event });
    if (await repo.findMember(tx.db, organization.id, user.id)) return;
    await requireRoomFor(tx, realm, user.id);
    await repo.insertMember(tx.db, { organization_id: organization.id, user_id: user.id, role, joined_at: isoNow(deps.clock) });
    await membershipCreated(tx, projectId, actor, organization, user.id, role);
  });
  const membership = await requireMembership(deps, projectId, invitation.organization_id, user.id);
  const member = (await repo.findMember(deps.db, invitation.organization_id, user.id))!;
  const { organization } = membership;
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    logo_url: organization.logo_url,
    public_metadata: parseMetadata(organization.public_metadata),
    role: member.role,
    permissions: membership.permissions,
    joined_at: member.joined_at,
  };
}

/** The organization, or 404 (another area's check that an organization of the project exists). */
export function organizationOf(deps: Pick<Deps, 'db'>, projectId: string, organizationId: string): Promise<OrganizationRow> {
  return requireOrganization(deps, projectId, organizationId);
}

/** 422 unless the role is one of the project's (built in or its own). */
export function requireProjectRoleKey(deps: Pick<Deps, 'db'>, projectId: string, role: string): Promise<void> {
  return requireRole(deps, projectId, role);
}

/**
 * An enterprise sign-in's membership, in the sign-in's transaction: made with `role` on the first
 * sign-in, and its role changed when the IdP's groups now map to another one (`fromGroups`); a role
 * given by hand is left alone when the IdP says nothing of groups. Audited and sent to webhooks like any.
 */
export async function provisionMembership(
  tx: Tx<Deps>,
  realm: Realm & { projectId: string },
  actor: AuditActor,
  organizationId: string,
  userId: string,
  role: string,
  fromGroups: boolean,
): Promise<void> {
  const { projectId } = realm;
  const organization = await requireOrganization(tx, projectId, organizationId);
  const member = await repo.findMember(tx.db, organization.id, userId);
  if (!member) {
    await requireRoomFor(tx, realm, userId);
    await repo.insertMember(tx.db, { organization_id: organization.id, user_id: userId, role, joined_at: isoNow(tx.clock) });
    await membershipCreated(tx, projectId, actor, organization, userId, role);
    return;
  }
  if (!fromGroups || member.role === role) return;
  await repo.updateMemberRole(tx.db, organization.id, userId, role, isoNow(tx.clock));
  await memberRoleChanged(tx, projectId, actor, organization, userId, member.role, role);
}
