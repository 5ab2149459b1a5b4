import { z } from 'zod';
import { EmailSchema } from './common.js';

/**
 * A developer's role on a project: `owner` does everything; `admin` everything but deleting the project
 * and managing owners; `viewer` reads (monitoring, analytics, settings) and changes nothing.
 */
export const PROJECT_ROLES = ['owner', 'admin', 'viewer'] as const;
export const ProjectRoleSchema = z.enum(PROJECT_ROLES, { error: 'role must be owner, admin or viewer' });
export type ProjectRole = z.infer<typeof ProjectRoleSchema>;

/** What each role may do, from least to most. */
const RANK: Record<ProjectRole, number> = { viewer: 0, admin: 1, owner: 2 };
export const roleAllows = (role: ProjectRole, needed: ProjectRole): boolean => RANK[role] >= RANK[needed];

/** An invitation's link is good for this long. */
export const INVITATION_TTL_DAYS = 7;

export const TEAM_MESSAGES = {
  forbidden: 'Your role on this project does not allow this',
  lastOwner: 'A project needs at least one owner: make someone else an owner first',
  alreadyMember: 'That person is already on the team',
  invitationInvalid: 'This invitation link is invalid or has expired',
  invitationOtherAccount: 'This invitation was sent to another e-mail address: sign in with that address to accept it',
} as const;

export const MemberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  role: ProjectRoleSchema,
  joined_at: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: ProjectRoleSchema,
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const TeamSchema = z.object({
  /** The caller's own role. */
  role: ProjectRoleSchema,
  members: z.array(MemberSchema),
  invitations: z.array(InvitationSchema),
});
export type Team = z.infer<typeof TeamSchema>;

export const InviteMemberInputSchema = z.object({
  email: EmailSchema,
  role: ProjectRoleSchema,
});

export const ChangeRoleInputSchema = z.object({ role: ProjectRoleSchema });

export const InvitationTokenInputSchema = z.object({
  token: z.string({ error: TEAM_MESSAGES.invitationInvalid }).trim().min(1, { error: TEAM_MESSAGES.invitationInvalid }).max(200, { error: TEAM_MESSAGES.invitationInvalid }),
});

/** What the invitation page shows before it is accepted. */
export const InvitationPreviewSchema = z.object({
  project_name: z.string(),
  email: z.string(),
  role: ProjectRoleSchema,
  invited_by: z.string().nullable(),
  expires_at: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

export const AcceptedInvitationSchema = z.object({ project_id: z.string(), role: ProjectRoleSchema, message: z.string() });
