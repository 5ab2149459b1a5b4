import { z } from 'zod';
import { IdParamSchema } from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  AcceptedInvitationSchema,
  ChangeRoleInputSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenInputSchema,
  InviteMemberInputSchema,
  MemberSchema,
  TeamSchema,
} from '../../../shared/schemas/teams.js';
import { defineRoute, ANYONE, SIGNED_IN, TEAM, teamRole } from '../../rest/route.js';
import * as teams from './teams.service.js';

const Id = IdParamSchema.shape.id;
const ROLES =
  'Roles: `owner` (everything), `admin` (everything but deleting the project and managing owners), `viewer` (reads monitoring, analytics and settings, changes nothing).';

/** A project's team: members, their roles, invitations by e-mail. */
export const teamRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/team',
    procedure: 'get',
    access: TEAM,
    params: z.object({ id: Id }),
    response: { 200: TeamSchema },
    doc: { operationId: 'getProjectTeam', tag: 'Teams', summary: "The project's members and pending invitations, with the caller's own role", description: ROLES },
    handler: ({ deps, caller, params }) => teams.getTeam(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/invitations',
    procedure: 'invite',
    access: TEAM,
    params: z.object({ id: Id }),
    body: InviteMemberInputSchema,
    response: { 201: InvitationSchema },
    doc: {
      operationId: 'inviteProjectMember',
      tag: 'Teams',
      summary: 'Invite someone by e-mail',
      description: `Mails a link valid 7 days; the invitee signs up or signs in with that address and accepts. A new invitation to the same address replaces the earlier one. Admins and owners invite; only owners invite owners. 409 when the address is already on the team. ${ROLES}`,
      errors: [409],
    },
    handler: ({ deps, caller, params, body }) => teams.inviteMember(deps, caller.session.user, params.id, body, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/invitations/:invitation_id',
    procedure: 'revokeInvitation',
    access: TEAM,
    params: z.object({ id: Id, invitation_id: Id }),
    response: { 200: MessageSchema },
    doc: { operationId: 'revokeProjectInvitation', tag: 'Teams', summary: 'Withdraw a pending invitation (its link stops working)' },
    handler: ({ deps, caller, params }) => teams.revokeInvitation(deps, caller.session.user, params.id, params.invitation_id, caller.info),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/v1/projects/:id/members/:user_id',
    procedure: 'changeRole',
    access: TEAM,
    params: z.object({ id: Id, user_id: Id }),
    body: ChangeRoleInputSchema,
    response: { 200: MemberSchema },
    doc: {
      operationId: 'changeProjectMemberRole',
      tag: 'Teams',
      summary: "Change a member's role",
      description: 'Admins and owners change roles; only owners give or take the owner role. 409 when it would leave the project without an owner.',
      errors: [409],
    },
    handler: ({ deps, caller, params, body }) => teams.changeMemberRole(deps, caller.session.user, params.id, params.user_id, body.role, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/members/:user_id',
    procedure: 'removeMember',
    access: TEAM,
    params: z.object({ id: Id, user_id: Id }),
    response: { 200: MessageSchema },
    doc: {
      operationId: 'removeProjectMember',
      tag: 'Teams',
      summary: 'Remove a member',
      description: 'Admins and owners remove members (themselves included); only owners remove owners. 409 for the last owner.',
      errors: [409],
    },
    handler: ({ deps, caller, params }) => teams.removeMember(deps, caller.session.user, params.id, params.user_id, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/leave',
    procedure: 'leave',
    access: teamRole('viewer'),
    params: z.object({ id: Id }),
    response: { 200: MessageSchema },
    doc: { operationId: 'leaveProject', tag: 'Teams', summary: "Leave the project's team", description: '409 for the last owner.', errors: [409] },
    handler: ({ deps, caller, params }) => teams.removeMember(deps, caller.session.user, params.id, caller.session.user.id, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/invitations/preview',
    procedure: 'previewInvitation',
    access: ANYONE,
    body: InvitationTokenInputSchema,
    response: { 200: InvitationPreviewSchema },
    doc: { operationId: 'previewProjectInvitation', tag: 'Teams', summary: 'What an invitation link is for (project, address, role)', errors: [404] },
    handler: ({ deps, body }) => teams.previewInvitation(deps, body.token),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/invitations/accept',
    procedure: 'acceptInvitation',
    access: SIGNED_IN,
    body: InvitationTokenInputSchema,
    response: { 200: AcceptedInvitationSchema },
    doc: {
      operationId: 'acceptProjectInvitation',
      tag: 'Teams',
      summary: 'Join the team an invitation is for',
      description: "The signed-in developer's verified address must be the invited one (403 otherwise). The link works once (404 after).",
      errors: [404],
    },
    handler: ({ deps, caller, body }) => teams.acceptInvitation(deps, caller.session.user, body.token, caller.info),
  }),
];
