import type { z } from 'zod';
import {
  INVITATION_TTL_DAYS,
  TEAM_MESSAGES,
  type Invitation,
  type InvitationPreview,
  type InviteMemberInputSchema,
  type Member,
  type ProjectRole,
  type Team,
} from '../../../shared/schemas/teams.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { projectInvitationMail } from '../../mail/templates.js';
import { appLink, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { recordChange } from '../changes/record-change.js';
import { requireProjectRole } from '../realms/project-access.js';
import { normalizeEmail } from '../../lib/email.js';
import {
  countOwners,
  countPendingInvitations,
  deleteInvitation,
  deleteInvitationsTo,
  deleteMember,
  findInvitation,
  findLiveInvitationByHash,
  findMember,
  findMemberByEmail,
  insertInvitation,
  insertMember,
  keepPrimaryOwner,
  listMembers,
  listPendingInvitations,
  lockTeam,
  setMemberRole,
} from './teams.repo.js';

const MAX_PENDING_INVITATIONS = 50;
const MEMBER_NOT_FOUND = 'Member not found';

/** Owners are managed by owners only: an admin can neither give nor take that role. */
function requireRoleToManage(callerRole: ProjectRole, ...roles: ProjectRole[]): void {
  if (roles.includes('owner') && callerRole !== 'owner') throw new AppError('FORBIDDEN', TEAM_MESSAGES.forbidden);
}

function toMember(row: Awaited<ReturnType<typeof listMembers>>[number]): Member {
  return { user_id: row.user_id, email: row.email, first_name: row.first_name, last_name: row.last_name, role: row.role, joined_at: row.created_at };
}

export async function getTeam(deps: Deps, user: UserRow, projectId: string): Promise<Team> {
  const project = await requireProjectRole(deps, user, projectId, 'viewer');
  const now = isoNow(deps.clock);
  const [members, invitations] = await Promise.all([listMembers(deps.db, projectId), listPendingInvitations(deps.db, projectId, now)]);
  return {
    role: project.role,
    members: members.map(toMember),
    invitations: invitations.map((i): Invitation => ({ id: i.id, email: i.email, role: i.role, invited_by: i.invited_by, created_at: i.created_at, expires_at: i.expires_at })),
  };
}

/**
 * Invites an address to the team: a link valid 7 days is mailed, whether or not the address has an
 * account (the answer is the same either way, so it tells nothing about who is on the platform).
 */
export async function inviteMember(
  deps: Deps,
  user: UserRow,
  projectId: string,
  input: z.output<typeof InviteMemberInputSchema>,
  info: RequestInfo,
): Promise<Invitation> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  requireRoleToManage(project.role, input.role);
  const { email } = input;
  if (await findMemberByEmail(deps.db, projectId, email)) throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyMember);
  const now = deps.clock.now();
  if ((await countPendingInvitations(deps.db, projectId, now.toISOString())) >= MAX_PENDING_INVITATIONS) {
    throw new AppError('CONFLICT', `A project can have at most ${MAX_PENDING_INVITATIONS} pending invitations`);
  }
  const token = randomToken(32);
  const invitation = {
    id: newId(),
    project_id: projectId,
    email,
    role: input.role,
    token_hash: sha256(token),
    invited_by: user.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000).toISOString(),
  };
  const mayMail = await withinMailCap(deps, 'project_invitation', email);
  await withTransaction(deps, async (tx) => {
    await deleteInvitationsTo(tx.db, projectId, email);
    await insertInvitation(tx.db, invitation);
    await recordChange(tx, { user, info }, { projectId, action: 'member.invited', target: { type: 'invitation', id: invitation.id, label: email }, after: { email, role: input.role } });
    // To a developer (with an account or not), not to one of the project's end users: the platform's mail.
    const mail = projectInvitationMail(email, { project: project.name, invitedBy: user.email, role: input.role, url: appLink(deps.platform, '/invitations', token), days: INVITATION_TTL_DAYS });
    if (mayMail) await queueCappedMail(tx, 'project_invitation', mail, { projectId: null, userId: null });
  });
  return { id: invitation.id, email, role: input.role, invited_by: user.email, created_at: invitation.created_at, expires_at: invitation.expires_at };
}

export async function revokeInvitation(deps: Deps, user: UserRow, projectId: string, invitationId: string, info: RequestInfo): Promise<{ message: string }> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  const invitation = await findInvitation(deps.db, projectId, invitationId);
  if (!invitation) throw new AppError('NOT_FOUND', 'Invitation not found');
  requireRoleToManage(project.role, invitation.role);
  await withTransaction(deps, async (tx) => {
    await deleteInvitation(tx.db, invitation.id);
    await recordChange(tx, { user, info }, { projectId, action: 'invitation.revoked', target: { type: 'invitation', id: invitation.id, label: invitation.email }, before: { email: invitation.email, role: invitation.role } });
  });
  return { message: 'Invitation revoked' };
}

async function requireLiveInvitation(deps: Deps, token: string) {
  const invitation = await findLiveInvitationByHash(deps.db, sha256(token), isoNow(deps.clock));
  if (!invitation) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationInvalid);
  return invitation;
}

/** What the invitation page shows; the token is the only credential, as for any mailed link. */
export async function previewInvitation(deps: Deps, token: string): Promise<InvitationPreview> {
  const invitation = await requireLiveInvitation(deps, token);
  return { project_name: invitation.project_name, email: invitation.email, role: invitation.role, invited_by: invitation.inviter_email, expires_at: invitation.expires_at };
}

/**
 * Joins the team: the signed-in developer's address must be the invited one (the link went to that
 * mailbox) and verified. The link works once.
 */
export async function acceptInvitation(deps: Deps, user: UserRow, token: string, info: RequestInfo): Promise<{ project_id: string; role: ProjectRole; message: string }> {
  const invitation = await requireLiveInvitation(deps, token);
  if (normalizeEmail(user.email) !== invitation.email) throw new AppError('FORBIDDEN', TEAM_MESSAGES.invitationOtherAccount);
  if (user.is_verified !== 1) throw new AppError('FORBIDDEN', 'Please verify your email first');
  const existing = await findMember(deps.db, invitation.project_id, user.id);
  await withTransaction(deps, async (tx) => {
    if (!(await deleteInvitation(tx.db, invitation.id))) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationInvalid);
    if (existing) return;
    await insertMember(tx.db, { project_id: invitation.project_id, user_id: user.id, role: invitation.role, created_at: isoNow(deps.clock) });
    await recordChange(tx, { user, info }, { projectId: invitation.project_id, action: 'member.joined', target: { type: 'member', id: user.id, label: user.email }, after: { role: invitation.role } });
  });
  const role = existing?.role ?? invitation.role;
  return { project_id: invitation.project_id, role, message: `You joined ${invitation.project_name}` };
}

/** Owners and admins change roles; only owners touch the owner role, and the last owner stays one. */
export async function changeMemberRole(deps: Deps, user: UserRow, projectId: string, memberId: string, role: ProjectRole, info: RequestInfo): Promise<Member> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  const member = await findMember(deps.db, projectId, memberId);
  if (!member) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
  requireRoleToManage(project.role, member.role, role);
  if (member.role !== role) {
    await withTransaction(deps, async (tx) => {
      await lockTeam(tx.db, projectId);
      if (member.role === 'owner' && (await countOwners(tx.db, projectId)) <= 1) throw new AppError('CONFLICT', TEAM_MESSAGES.lastOwner);
      await setMemberRole(tx.db, projectId, memberId, role);
      await keepPrimaryOwner(tx.db, projectId);
      await recordChange(tx, { user, info }, { projectId, action: 'member.role_changed', target: { type: 'member', id: memberId, label: member.email }, before: { role: member.role }, after: { role } });
    });
  }
  return toMember((await listMembers(deps.db, projectId)).find((m) => m.user_id === memberId)!);
}

/**
 * Takes someone off the team, or the caller themselves (leaving needs no role beyond being on it).
 * Only owners remove owners, and the last owner can neither leave nor be removed.
 */
export async function removeMember(deps: Deps, user: UserRow, projectId: string, memberId: string, info: RequestInfo): Promise<{ message: string }> {
  const leaving = memberId === user.id;
  const project = await requireProjectRole(deps, user, projectId, leaving ? 'viewer' : 'admin');
  const member = await findMember(deps.db, projectId, memberId);
  if (!member) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
  if (!leaving) requireRoleToManage(project.role, member.role);
  await withTransaction(deps, async (tx) => {
    await lockTeam(tx.db, projectId);
    if (member.role === 'owner' && (await countOwners(tx.db, projectId)) <= 1) throw new AppError('CONFLICT', TEAM_MESSAGES.lastOwner);
    await deleteMember(tx.db, projectId, memberId);
    await keepPrimaryOwner(tx.db, projectId);
    await recordChange(tx, { user, info }, { projectId, action: leaving ? 'member.left' : 'member.removed', target: { type: 'member', id: memberId, label: member.email }, before: { role: member.role } });
  });
  return { message: leaving ? 'You left the project' : 'Member removed' };
}
