import { MESSAGES } from '../../../shared/messages.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { OwnSessionListSchema, RevokedSessionsSchema, SessionIdInputSchema } from '../../../shared/schemas/sessions.js';
import { inputParser } from '../../lib/validate.js';
import { clearAuthCookies } from '../../plugins/auth-cookies.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { listOwnSessions, revokeOtherOwnSessions, revokeOwnSession } from './own-sessions.service.js';

/** The signed-in developer's own sessions, called under `auth.*` (merged there in trpc/router.ts). */
export const ownSessionsRouter = router({
  listSessions: authedProcedure.output(OwnSessionListSchema).query(async ({ ctx }) => ({ sessions: await listOwnSessions(ctx.deps, ctx.auth) })),

  revokeSession: authedProcedure
    .input(inputParser(SessionIdInputSchema))
    .output(MessageSchema)
    .mutation(async ({ ctx, input }) => {
      await revokeOwnSession(ctx.deps, ctx.auth, input.id);
      if (input.id === ctx.auth.sessionId) clearAuthCookies(ctx.res, ctx.deps.config);
      return { message: MESSAGES.sessionRevoked };
    }),

  revokeOtherSessions: authedProcedure
    .output(RevokedSessionsSchema)
    .mutation(async ({ ctx }) => ({ message: MESSAGES.otherSessionsRevoked, revoked: await revokeOtherOwnSessions(ctx.deps, ctx.auth) })),
});
