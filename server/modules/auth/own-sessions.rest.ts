import { z } from 'zod';
import { IdParamSchema } from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { MESSAGES } from '../../../shared/messages.js';
import { OwnSessionListSchema, RevokedSessionsSchema } from '../../../shared/schemas/sessions.js';
import { defineRoute } from '../../rest/route.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { listOwnSessions, revokeOtherOwnSessions, revokeOwnSession } from '../sessions/own-sessions.service.js';

/**
 * The signed-in account's own sessions, one declaration for both realms: a developer (bearer or
 * cookie), or a project's end user (X-API-Key and the end user's bearer token).
 */
export function ownSessionRoutes(mount: AccountMount) {
  const { prefix, signedIn: auth, doc, cookies, procedure } = accountMountOf(mount);

  return [
    defineRoute({
      method: 'GET',
      url: `${prefix}/auth/sessions`,
      procedure: procedure('listSessions'),
      access: auth,
      response: { 200: OwnSessionListSchema },
      doc: doc(
        {
          operationId: 'listSessions',
          tag: 'Auth',
          summary: 'Your live sessions',
          description:
            'The account\'s sessions that are not revoked, expired or idle past its timeout, most recently used first; `current` marks the one of this access token. `last_used_at` is recorded at most about once a minute.',
        },
        { operationId: 'publicListSessions', summary: "An end user's live sessions" },
      ),
      handler: async ({ deps, caller }) => ({ sessions: await listOwnSessions(deps, caller.session) }),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${prefix}/auth/sessions/:id`,
      procedure: procedure('revokeSession'),
      access: auth,
      params: z.object({ id: IdParamSchema.shape.id }),
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'revokeSession',
          tag: 'Auth',
          summary: 'Sign out one of your sessions',
          description:
            "Its refresh token stops working and its access token is refused from the next request; signing out the calling session also clears its cookies. Another account's session, or one already ended, is 404 like an unknown id.",
          errors: [404],
        },
        { operationId: 'publicRevokeSession', summary: "Sign out one of an end user's sessions", errors: [404] },
      ),
      async handler({ deps, caller, params, request, reply }) {
        await revokeOwnSession(deps, caller.session, params.id);
        if (params.id === caller.session.sessionId) cookies?.clear(reply, request, deps.config);
        return { message: MESSAGES.sessionRevoked };
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/sessions/revoke-others`,
      procedure: procedure('revokeOtherSessions'),
      access: auth,
      response: { 200: RevokedSessionsSchema },
      doc: doc(
        { operationId: 'revokeOtherSessions', tag: 'Auth', summary: 'Sign out all your other sessions', description: 'Every live session of the account but the calling one; `revoked` says how many.' },
        { operationId: 'publicRevokeOtherSessions', summary: "Sign out all an end user's other sessions" },
      ),
      handler: async ({ deps, caller }) => ({ message: MESSAGES.otherSessionsRevoked, revoked: await revokeOtherOwnSessions(deps, caller.session) }),
    }),
  ];
}
