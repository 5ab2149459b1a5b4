import { z } from 'zod';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  AcceptInvitationInputSchema,
  AddMemberInputSchema,
  AssignableRoleListSchema,
  CreateInvitationInputSchema,
  CreateOrganizationInputSchema,
  CreateOwnOrganizationInputSchema,
  CreateRoleInputSchema,
  EndUserSchema,
  InvitationPreviewInputSchema,
  MyOrganizationListSchema,
  MyOrganizationSchema,
  OrganizationInvitationListSchema,
  OrganizationInvitationPreviewSchema,
  OrganizationInvitationSchema,
  OrganizationListQuerySchema,
  OrganizationListSchema,
  OrganizationMemberListSchema,
  OrganizationMemberSchema,
  OrganizationRoleListSchema,
  OrganizationRoleSchema,
  OrganizationSchema,
  OrganizationSettingsSchema,
  UpdateMemberInputSchema,
  UpdateOrganizationInputSchema,
  UpdateOrganizationSettingsInputSchema,
  UpdateRoleInputSchema,
  UpdateUserMetadataInputSchema,
  UserOrganizationListSchema,
} from '../../../shared/schemas/organizations.js';
import type { Deps } from '../../deps.js';
import type { ProjectRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { API_KEY, defineRoute, TEAM, UnvalidatedParam, type Anonymous, type RouteDoc } from '../../rest/route.js';
import type { AuditActor } from '../changes/record-change.js';
import { getEndUser, updateUserMetadata } from './user-metadata.service.js';
import { findProjectOfMember } from '../realms/project-access.repo.js';
import type { MonitorScope, Realm } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import * as organizations from './organizations.service.js';
import * as roles from './roles.service.js';

/**
 * Organizations, declared once for the two sides that manage them: the project's backend with its
 * API key (`/public/api/v1/organizations…`) and the project's team in the dashboard
 * (`/api/v1/projects/{id}/organizations…`, also tRPC procedures). Then the end user's own routes
 * (public API and hosted pages), the project's roles and organization settings, and end users' metadata.
 */

/** What a handler needs of its caller, whichever side it is on. */
type AnyCaller = Anonymous & { project?: ProjectRow; scope?: MonitorScope; session?: Authenticated | null };

/** A change made by the project's backend: the audit log names its API key as the actor. */
const apiKeyActor = (info: AuditActor['info']): AuditActor => ({ user: { id: null, email: 'API key' }, info });

/** The project the call is about, its end users' realm (for mails and limits), and who to write in the audit log. */
async function contextOf(deps: Deps, caller: AnyCaller): Promise<{ projectId: string; realm: () => Promise<Realm & { projectId: string }>; actor: AuditActor }> {
  if (caller.project) {
    const { realm } = caller;
    return { projectId: caller.project.id, realm: async () => realm as Realm & { projectId: string }, actor: apiKeyActor(caller.info) };
  }
  const projectId = caller.scope!.projectId!;
  return {
    projectId,
    realm: async () => {
      const project = await findProjectOfMember(deps.db, caller.session!.user.id, projectId);
      if (!project) throw new AppError('NOT_FOUND', 'Project not found');
      return (await deps.projectRealms.realmOf(project)) as Realm & { projectId: string };
    },
    actor: { user: caller.session!.user, info: caller.info },
  };
}

interface Side<S extends z.ZodRawShape = z.ZodRawShape> {
  base: string;
  access: typeof API_KEY | typeof TEAM;
  params: z.ZodObject<S>;
  doc(operation: string, summary: string, more?: Omit<RouteDoc, 'operationId' | 'tag' | 'summary'>): RouteDoc;
  procedure<N extends string>(name: N): N | undefined;
}

export const API_KEY_SIDE: Side<{}> = {
  base: '/public/api/v1/organizations',
  access: API_KEY,
  params: z.object({}),
  doc: (operation, summary, more) => ({ operationId: `public${operation}`, tag: 'Public API', summary, ...more }),
  procedure: () => undefined,
};
export const DASHBOARD_SIDE: Side<{ id: typeof UnvalidatedParam }> = {
  base: '/api/v1/projects/:id/organizations',
  access: TEAM,
  params: z.object({ id: UnvalidatedParam }),
  doc: (operation, summary, more) => ({ operationId: `project${operation}`, tag: 'Organizations', summary, ...more }),
  procedure: (name) => name,
};

/** The path's ids (the generic side hides their static type here; each side's routes have them typed). */
const ids = (params: unknown) => params as { organization_id: string; user_id: string; invitation_id: string };

const TAKES_EFFECT = 'Tokens show the change from their next refresh.';

export function organizationRoutes<S extends z.ZodRawShape>(side: Side<S>) {
  const { base, access, doc } = side;
  const OrgParams = z.object({ ...side.params.shape, organization_id: UnvalidatedParam });
  const MemberParams = z.object({ ...side.params.shape, organization_id: UnvalidatedParam, user_id: UnvalidatedParam });
  const InvitationParams = z.object({ ...side.params.shape, organization_id: UnvalidatedParam, invitation_id: UnvalidatedParam });
  return [
    defineRoute({
      method: 'GET',
      url: base,
      access,
      params: side.params,
      query: OrganizationListQuerySchema,
      response: { 200: OrganizationListSchema },
      doc: doc('ListOrganizations', "The project's organizations, newest first", { description: '`q` searches names and slugs.' }),
      procedure: side.procedure('list'),
      handler: async ({ deps, caller, query }) => organizations.listOrganizations(deps, (await contextOf(deps, caller)).projectId, query),
    }),
    defineRoute({
      method: 'POST',
      url: base,
      access,
      params: side.params,
      body: CreateOrganizationInputSchema,
      response: { 201: OrganizationSchema },
      doc: doc('CreateOrganization', 'Create an organization', {
        description: 'The slug is made from the name when left out (409 when one given is taken). `created_by`, an end user of the project, becomes its first `org:admin`. Sends `organization.created`.',
        errors: [404, 409],
      }),
      procedure: side.procedure('create'),
      async handler({ deps, caller, body }) {
        const context = await contextOf(deps, caller);
        return organizations.createOrganization(deps, await context.realm(), context.actor, body);
      },
    }),
    defineRoute({
      method: 'GET',
      url: `${base}/:organization_id`,
      access,
      params: OrgParams,
      response: { 200: OrganizationSchema },
      doc: doc('GetOrganization', 'One organization', { errors: [404] }),
      procedure: side.procedure('get'),
      handler: async ({ deps, caller, params }) => organizations.getOrganization(deps, (await contextOf(deps, caller)).projectId, ids(params).organization_id),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${base}/:organization_id`,
      access,
      params: OrgParams,
      body: UpdateOrganizationInputSchema,
      response: { 200: OrganizationSchema },
      doc: doc('UpdateOrganization', 'Change an organization', { description: `Fields left out stay as they are; metadata objects are replaced whole. Sends \`organization.updated\`. ${TAKES_EFFECT}`, errors: [404, 409] }),
      procedure: side.procedure('update'),
      async handler({ deps, caller, params, body }) {
        const context = await contextOf(deps, caller);
        return organizations.updateOrganization(deps, context.projectId, context.actor, ids(params).organization_id, body);
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: `${base}/:organization_id`,
      access,
      params: OrgParams,
      response: { 200: MessageSchema },
      doc: doc('DeleteOrganization', 'Delete an organization with its memberships and invitations', { description: `Sends \`organization.deleted\`. ${TAKES_EFFECT}`, errors: [404] }),
      procedure: side.procedure('delete'),
      async handler({ deps, caller, params }) {
        const context = await contextOf(deps, caller);
        return organizations.deleteOrganization(deps, context.projectId, context.actor, ids(params).organization_id);
      },
    }),
    defineRoute({
      method: 'GET',
      url: `${base}/:organization_id/members`,
      access,
      params: OrgParams,
      response: { 200: OrganizationMemberListSchema },
      doc: doc('ListOrganizationMembers', "An organization's members with their roles", { errors: [404] }),
      procedure: side.procedure('members'),
      handler: async ({ deps, caller, params }) => organizations.listMembers(deps, (await contextOf(deps, caller)).projectId, ids(params).organization_id),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/:organization_id/members`,
      access,
      params: OrgParams,
      body: AddMemberInputSchema,
      response: { 201: OrganizationMemberSchema },
      doc: doc('AddOrganizationMember', 'Add an end user to an organization', {
        description: 'With one of the project\'s roles (`org:member` when left out). 409 for a member already, or a user at the project\'s limit of organizations. Sends `organization_membership.created`.',
        errors: [404, 409],
      }),
      procedure: side.procedure('addMember'),
      async handler({ deps, caller, params, body }) {
        const context = await contextOf(deps, caller);
        return organizations.addMember(deps, await context.realm(), context.actor, ids(params).organization_id, body);
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: `${base}/:organization_id/members/:user_id`,
      access,
      params: MemberParams,
      body: UpdateMemberInputSchema,
      response: { 200: OrganizationMemberSchema },
      doc: doc('UpdateOrganizationMember', "Change a member's role", { description: `Sends \`organization_membership.updated\`. ${TAKES_EFFECT}`, errors: [404] }),
      procedure: side.procedure('updateMember'),
      async handler({ deps, caller, params, body }) {
        const context = await contextOf(deps, caller);
        return organizations.changeMemberRole(deps, context.projectId, context.actor, ids(params).organization_id, ids(params).user_id, body.role);
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: `${base}/:organization_id/members/:user_id`,
      access,
      params: MemberParams,
      response: { 200: MessageSchema },
      doc: doc('RemoveOrganizationMember', 'Take a member out of an organization', { description: `Sends \`organization_membership.deleted\`. ${TAKES_EFFECT}`, errors: [404] }),
      procedure: side.procedure('removeMember'),
      async handler({ deps, caller, params }) {
        const context = await contextOf(deps, caller);
        return organizations.removeMember(deps, context.projectId, context.actor, ids(params).organization_id, ids(params).user_id);
      },
    }),
    defineRoute({
      method: 'GET',
      url: `${base}/:organization_id/invitations`,
      access,
      params: OrgParams,
      response: { 200: OrganizationInvitationListSchema },
      doc: doc('ListOrganizationInvitations', "An organization's invitations, newest first (pending, accepted and expired)", { errors: [404] }),
      procedure: side.procedure('invitations'),
      handler: async ({ deps, caller, params }) => organizations.listInvitations(deps, (await contextOf(deps, caller)).projectId, ids(params).organization_id),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/:organization_id/invitations`,
      access,
      params: OrgParams,
      body: CreateInvitationInputSchema,
      response: { 201: OrganizationInvitationSchema },
      doc: doc('CreateOrganizationInvitation', 'Invite an address into an organization', {
        description:
          'Mails a link (good for 7 days, once) in the project\'s name to `/accept-invitation?token=…` under its mail links\' base (the hosted pages, or its website). Inviting an address again replaces its pending invitation. 409 for a member already. Sends `organization_invitation.created`.',
        errors: [404, 409],
      }),
      procedure: side.procedure('invite'),
      async handler({ deps, caller, params, body }) {
        const context = await contextOf(deps, caller);
        return organizations.createInvitation(deps, await context.realm(), context.actor, ids(params).organization_id, body, null);
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: `${base}/:organization_id/invitations/:invitation_id`,
      access,
      params: InvitationParams,
      response: { 200: MessageSchema },
      doc: doc('RevokeOrganizationInvitation', 'Revoke an invitation (its link stops working)', { errors: [404] }),
      procedure: side.procedure('revokeInvitation'),
      async handler({ deps, caller, params }) {
        const context = await contextOf(deps, caller);
        return organizations.revokeInvitation(deps, context.projectId, context.actor, ids(params).organization_id, ids(params).invitation_id);
      },
    }),
  ];
}

const UserParams = z.object({ user_id: UnvalidatedParam });

/** An end user and their metadata, for the project's backend (API key). */
export const userMetadataRoutes = [
  defineRoute({
    method: 'GET',
    url: '/public/api/v1/users/:user_id',
    access: API_KEY,
    params: UserParams,
    response: { 200: EndUserSchema },
    doc: { operationId: 'publicGetUser', tag: 'Public API', summary: 'An end user of the project, with their metadata (private included)', errors: [404] },
    handler: ({ deps, caller, params }) => getEndUser(deps, caller.project.id, params.user_id),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/public/api/v1/users/:user_id/metadata',
    access: API_KEY,
    params: UserParams,
    body: UpdateUserMetadataInputSchema,
    response: { 200: EndUserSchema },
    doc: {
      operationId: 'publicUpdateUserMetadata',
      tag: 'Public API',
      summary: "Set an end user's metadata",
      description:
        'Each object given is replaced whole (at most 8 KB of JSON each). `public_metadata` is in their access tokens (from the next refresh) and userinfo; `private_metadata` only here; `unsafe_metadata` is also the user\'s to write (PUT /profile). Sends `user.updated`.',
      errors: [404],
    },
    handler: ({ deps, caller, params, body }) => updateUserMetadata(deps, caller.project.id, apiKeyActor(caller.info), params.user_id, body),
  }),
];

const ProjectParams = z.object({ id: UnvalidatedParam });
const RoleParams = ProjectParams.extend({ role_key: UnvalidatedParam });

/** A project's organization roles and settings, for its team (dashboard). */
export const organizationRoleRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/roles',
    access: TEAM,
    params: ProjectParams,
    response: { 200: OrganizationRoleListSchema },
    doc: { operationId: 'listOrganizationRoles', tag: 'Organizations', summary: "The project's organization roles: org:admin, org:member and its own" },
    procedure: 'roles',
    handler: ({ deps, caller }) => roles.listOrganizationRoles(deps, caller.scope.projectId!),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/roles',
    access: TEAM,
    params: ProjectParams,
    body: CreateRoleInputSchema,
    response: { 201: OrganizationRoleSchema },
    doc: { operationId: 'createOrganizationRole', tag: 'Organizations', summary: 'Add a role with its permission keys (such as invoices:read)', errors: [409] },
    procedure: 'createRole',
    handler: ({ deps, caller, body }) => roles.createOrganizationRole(deps, caller.scope.projectId!, { user: caller.session.user, info: caller.info }, body),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/v1/projects/:id/roles/:role_key',
    access: TEAM,
    params: RoleParams,
    body: UpdateRoleInputSchema,
    response: { 200: OrganizationRoleSchema },
    doc: { operationId: 'updateOrganizationRole', tag: 'Organizations', summary: "Change a role's name, description or permissions", description: `Built-in roles cannot be changed (400). ${TAKES_EFFECT}`, errors: [400, 404] },
    procedure: 'updateRole',
    handler: ({ deps, caller, params, body }) => roles.updateOrganizationRole(deps, caller.scope.projectId!, { user: caller.session.user, info: caller.info }, params.role_key, body),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/roles/:role_key',
    access: TEAM,
    params: RoleParams,
    response: { 200: MessageSchema },
    doc: { operationId: 'deleteOrganizationRole', tag: 'Organizations', summary: 'Delete a role no member holds', description: 'Built-in roles cannot be deleted (400); a role members hold cannot either (409).', errors: [400, 404, 409] },
    procedure: 'deleteRole',
    handler: ({ deps, caller, params }) => roles.deleteOrganizationRole(deps, caller.scope.projectId!, { user: caller.session.user, info: caller.info }, params.role_key),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/organization-settings',
    access: TEAM,
    params: ProjectParams,
    response: { 200: OrganizationSettingsSchema },
    doc: { operationId: 'getOrganizationSettings', tag: 'Organizations', summary: 'Whether end users may create organizations, how many, and the custom claims of access tokens' },
    procedure: 'settings',
    handler: ({ deps, caller }) => roles.getOrganizationSettings(deps, caller.scope.projectId!),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/v1/projects/:id/organization-settings',
    access: TEAM,
    params: ProjectParams,
    body: UpdateOrganizationSettingsInputSchema,
    response: { 200: OrganizationSettingsSchema },
    doc: {
      operationId: 'updateOrganizationSettings',
      tag: 'Organizations',
      summary: 'Change the organization settings',
      description:
        '`custom_claims` is a JSON object (at most 4 KB, 30 claims) whose strings are Liquid templates over `user` (id, email, email_verified, first_name, last_name, public_metadata) and `org` (id, slug, name, role, permissions, public_metadata; null outside one), such as `{"plan": "{{ user.public_metadata.plan }}", "tenant": "{{ org.slug }}"}`; a lone `{{ … }}` keeps its value\'s type. Registered and platform claims (sub, iss, aud, exp, org_id…) cannot be set (422). Tokens carry the custom claims and public metadata while, with the organization\'s claims, they fit in 2 KB.',
    },
    procedure: 'updateSettings',
    handler: ({ deps, caller, body }) => roles.updateOrganizationSettings(deps, caller.scope.projectId!, { user: caller.session.user, info: caller.info }, body),
  }),
];

/** The organizations of one of the project's end users, for the user's page in the dashboard. */
export const userOrganizationRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/users/:user_id/organizations',
    access: TEAM,
    params: ProjectParams.extend({ user_id: UnvalidatedParam }),
    response: { 200: UserOrganizationListSchema },
    doc: { operationId: 'listUserOrganizations', tag: 'Organizations', summary: "An end user's organizations, with their role in each", errors: [404] },
    procedure: 'ofUser',
    handler: ({ deps, caller, params }) => organizations.organizationsOfUser(deps, caller.scope.projectId!, params.user_id),
  }),
];

const MyOrgParams = z.object({ organization_id: UnvalidatedParam });

/** The signed-in end user's organizations: on the public API (their token and the project's key) and on the hosted pages. */
export function endUserOrganizationRoutes(mount: AccountMount) {
  const { prefix, signedIn, anonymous, doc } = accountMountOf(mount);
  const endUser = (operationId: string, summary: string, more: Omit<RouteDoc, 'operationId' | 'tag' | 'summary'> = {}) =>
    doc({ operationId, tag: 'Public API', summary, ...more }, { operationId, summary, ...more });
  const projectRealm = (realm: Realm) => realm as Realm & { projectId: string };
  return [
    defineRoute({
      method: 'GET',
      url: `${prefix}/me/organizations`,
      access: signedIn,
      response: { 200: MyOrganizationListSchema },
      doc: endUser('publicListMyOrganizations', "The end user's organizations, with their role and permissions in each", {
        description: '`active_organization_id` is the one the session is in (its tokens carry it); `can_create` says whether they may create one.',
      }),
      handler: ({ deps, caller }) => organizations.myOrganizations(deps, projectRealm(caller.realm), caller.session.user, caller.session.activeOrganizationId ?? null),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/me/organizations`,
      access: signedIn,
      body: CreateOwnOrganizationInputSchema,
      response: { 201: MyOrganizationSchema },
      doc: endUser('publicCreateMyOrganization', 'Create an organization and become its org:admin', {
        description: 'Only when the project lets end users create organizations (403 otherwise); 409 at the project\'s limit of organizations per user, or for a taken slug.',
        errors: [403, 409],
      }),
      handler: ({ deps, caller, body }) => organizations.createOwnOrganization(deps, projectRealm(caller.realm), caller.session.user, caller.info, body),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/me/organizations/:organization_id/members`,
      access: signedIn,
      params: MyOrgParams,
      response: { 200: OrganizationMemberListSchema },
      doc: endUser('publicListMyOrganizationMembers', "The members of one of the user's organizations", { errors: [404] }),
      handler: ({ deps, caller, params }) => organizations.membersAsMember(deps, caller.realm.projectId!, caller.session.user, params.organization_id),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/me/organizations/:organization_id/roles`,
      access: signedIn,
      params: MyOrgParams,
      response: { 200: AssignableRoleListSchema },
      doc: endUser('publicListMyAssignableRoles', 'The roles the user may invite with in one of their organizations', {
        description: 'Needs `members:manage` in it (403 otherwise): an org:admin may give every role, anyone else those giving no permission they lack.',
        errors: [403, 404],
      }),
      handler: ({ deps, caller, params }) => organizations.assignableRoles(deps, caller.realm.projectId!, caller.session.user, params.organization_id),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/me/organizations/:organization_id/invitations`,
      access: signedIn,
      params: MyOrgParams,
      body: CreateInvitationInputSchema,
      response: { 201: OrganizationInvitationSchema },
      doc: endUser('publicInviteToMyOrganization', 'Invite someone into one of the user\'s organizations', {
        description: 'Needs `members:manage` in it, and a role that gives no permission the inviter lacks (403 otherwise).',
        errors: [403, 404, 409],
      }),
      handler: ({ deps, caller, params, body }) => organizations.inviteAsMember(deps, projectRealm(caller.realm), caller.session.user, caller.info, params.organization_id, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${prefix}/me/organizations/:organization_id/members/:user_id`,
      access: signedIn,
      params: MyOrgParams.extend({ user_id: UnvalidatedParam }),
      response: { 200: MessageSchema },
      doc: endUser('publicRemoveMyOrganizationMember', 'Leave an organization (your own id), or remove a member', {
        description: 'Removing someone else needs `members:manage` (and org:admin to remove an org:admin); the last org:admin cannot leave (409).',
        errors: [403, 404, 409],
      }),
      handler: ({ deps, caller, params }) => organizations.removeAsMember(deps, projectRealm(caller.realm), caller.session.user, caller.info, params.organization_id, params.user_id),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/invitations/preview`,
      access: anonymous,
      body: InvitationPreviewInputSchema,
      response: { 200: OrganizationInvitationPreviewSchema },
      doc: endUser('publicPreviewInvitation', 'What an invitation link is for, before it is accepted', { description: '400 for an unknown, expired or used invitation.', errors: [400] }),
      handler: ({ deps, caller, body }) => organizations.previewInvitation(deps, caller.realm.projectId!, body.token),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/invitations/accept`,
      access: signedIn,
      body: AcceptInvitationInputSchema,
      response: { 200: MyOrganizationSchema },
      doc: endUser('publicAcceptInvitation', 'Join the organization of an invitation sent to the user\'s address', {
        description: '400 for an unknown, expired or used invitation, or one sent to another address. Sends `organization_invitation.accepted` and `organization_membership.created`.',
        errors: [400, 409],
      }),
      handler: ({ deps, caller, body }) => organizations.acceptInvitation(deps, projectRealm(caller.realm), caller.session.user, caller.info, body.token),
    }),
  ];
}
