import { z } from 'zod';
import { DeleteAccountInputSchema, UpdateEndUserProfileInputSchema } from '../../../shared/schemas/auth.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { EndUserProfileSchema } from '../../../shared/schemas/user.js';
import { JwksSchema } from '../../openapi/schemas.js';
import { defineRoute, UnvalidatedParam, ANYONE } from '../../rest/route.js';
import { stepUpRoutes } from '../auth/step-up.rest.js';
import { accountMountOf, PROJECT_ACCOUNTS, type AccountMount } from '../../rest/account-mount.js';
import { accountRoutes, emailChangeRoutes, passwordChangeRoutes } from '../auth/auth.rest.js';
import { mfaRoutes } from '../mfa/mfa.rest.js';
import { passkeyRoutes } from '../auth/passkeys.rest.js';
import { deleteAccount, updateProfile } from '../profile/profile.service.js';
import { ownSessionRoutes } from '../auth/own-sessions.rest.js';
import { socialRoutes } from '../social/social.rest.js';
import { toEndUserProfile } from '../users/user.mapper.js';

/**
 * The end-user API a developer's own backend calls with its project's key in X-API-Key: the same
 * account routes as the platform's own, in the project's realm, plus the end user's profile and
 * the project's public keys. No cookies: tokens travel in bodies and headers.
 */
export const publicApiRoutes = [
  defineRoute({
    method: 'GET',
    url: '/public/api/v1/projects/:project_key/jwks.json',
    access: ANYONE,
    params: z.object({ project_key: UnvalidatedParam }),
    response: { 200: JwksSchema },
    doc: {
      operationId: 'getProjectJwks',
      tag: 'Public API',
      summary: "A project's public signing keys",
      description: "Verifies the access tokens issued to the project's end users (issuer APP_URL/projects/{project_key}, audience the project key). Cacheable for 5 minutes.",
      errors: [404],
    },
    async handler({ deps, params, reply }) {
      // Public keys: browser apps (OpenID Connect clients in a page) fetch them from their own origin.
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
      return (await deps.projectRealms.jwks(params.project_key)) as z.input<typeof JwksSchema>;
    },
  }),
  ...accountRoutes(PROJECT_ACCOUNTS),
  ...endUserProfileRoutes(PROJECT_ACCOUNTS),
  ...passwordChangeRoutes(PROJECT_ACCOUNTS),
  ...stepUpRoutes(PROJECT_ACCOUNTS),
  ...mfaRoutes(PROJECT_ACCOUNTS),
  ...passkeyRoutes(PROJECT_ACCOUNTS),
  ...ownSessionRoutes(PROJECT_ACCOUNTS),
  ...emailChangeRoutes(PROJECT_ACCOUNTS),
  ...socialRoutes(PROJECT_ACCOUNTS),
];

/** The end user's own profile: through the public API (X-API-Key and their token), or on the hosted pages. */
export function endUserProfileRoutes(mount: AccountMount) {
  const { prefix, signedIn, cookies } = accountMountOf(mount);
  return [
    defineRoute({
      method: 'GET',
      url: `${prefix}/profile`,
      access: signedIn,
      response: { 200: EndUserProfileSchema },
      doc: { operationId: 'publicGetProfile', tag: 'Public API', summary: 'The end user of the access token' },
      handler: async ({ caller }) => toEndUserProfile(caller.session.user),
    }),
    defineRoute({
      method: 'PUT',
      url: `${prefix}/profile`,
      access: signedIn,
      body: UpdateEndUserProfileInputSchema,
      response: { 200: EndUserProfileSchema },
      doc: {
        operationId: 'publicUpdateProfile',
        tag: 'Public API',
        summary: "Update the end user's names and preferences",
        description: 'Fields left out stay as they are.',
        errors: [404],
      },
      handler: async ({ deps, caller, body }) => toEndUserProfile(await updateProfile(deps, caller.session.user, body)),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/delete-account`,
      access: signedIn,
      body: DeleteAccountInputSchema,
      response: { 200: MessageSchema },
      doc: {
        operationId: 'publicDeleteAccount',
        tag: 'Public API',
        summary: "Delete the end user's account",
        description: "Needs the end user's current password (401 otherwise), or without one a recent step-up (401 step_up_required). Deletes the account with its sessions, devices and login history; the project's webhooks get `user.deleted`.",
        errors: [404, 429],
      },
      async handler({ deps, caller, body, request, reply }) {
        const result = await deleteAccount(deps, caller.session, body, caller.info);
        cookies?.clear(reply, request, deps.config);
        return result;
      },
    }),
  ];
}
