import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { Deps } from '../deps.js';
import { AppError, answerableError, trpcCodeOf } from '../errors.js';
import { logUnavailable } from '../lib/outage-log.js';
import type { ProjectRole } from '../../shared/schemas/teams.js';
import { requireProjectRole, roleForReading } from '../modules/projects/project-access.js';
import { PLATFORM_SCOPE } from '../modules/realms/realm.js';
import { authenticateRequest, requireAdmin } from '../plugins/authenticate.js';
import { requestInfoOf } from '../plugins/request-info.js';

export function createContextFactory(deps: Deps) {
  return ({ req, res }: CreateFastifyContextOptions) => ({ deps, req, res, request: requestInfoOf(req) });
}

export type Context = ReturnType<ReturnType<typeof createContextFactory>>;

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Never leak internals: unexpected errors keep their code but lose their message and stack.
    const safe = error.code === 'INTERNAL_SERVER_ERROR' ? 'Internal Server Error' : shape.message;
    const { stack: _stack, ...data } = shape.data;
    const cause = error.cause instanceof AppError ? error.cause : undefined;
    return { ...shape, message: safe, data: { ...data, ...(cause?.retryAfterS ? { retryAfterS: cause.retryAfterS } : {}), ...cause?.extra } };
  },
});

/** Maps the one domain error type to tRPC codes, once, for every procedure. */
const domainErrors = t.middleware(async ({ next, ctx }) => {
  const result = await next();
  if (!result.ok) {
    const cause = answerableError(result.error.cause);
    if (cause) {
      if (cause !== result.error.cause) logUnavailable(ctx.deps.logger, result.error.cause);
      if (cause.retryAfterS) ctx.res.header('retry-after', String(cause.retryAfterS));
      throw new TRPCError({ code: trpcCodeOf(cause), message: cause.detail, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') ctx.deps.logger.error({ err: result.error.cause ?? result.error }, 'tRPC procedure failed');
  }
  return result;
});

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const publicProcedure = t.procedure.use(domainErrors);

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const auth = await authenticateRequest(ctx.deps, ctx.deps.platform, ctx.req);
  return next({ ctx: { ...ctx, auth } });
});

/** The admin area: monitoring over the platform's own accounts. */
export const adminProcedure = authedProcedure.use(async ({ ctx, next }) => {
  requireAdmin(ctx.auth.user);
  return next({ ctx: { ...ctx, scope: PLATFORM_SCOPE } });
});

/** `projectId` as the caller sent it, when it is text; anything else fails the input's validation next. */
function rawProjectIdOf(raw: unknown): string | undefined {
  const id = typeof raw === 'object' && raw !== null ? (raw as { projectId?: unknown }).projectId : undefined;
  return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}

/**
 * A procedure on one project (`projectId` in its input): the caller must be on the project's team,
 * as a viewer for a query and an admin for a mutation unless `needed` says otherwise; checked before
 * the input is read, as the REST mount does for /api/v1/projects/:id/….
 */
export const projectProcedure = (needed?: ProjectRole) =>
  authedProcedure.use(async ({ ctx, type, getRawInput, next }) => {
    const projectId = rawProjectIdOf(await getRawInput());
    if (projectId !== undefined) await requireProjectRole(ctx.deps, ctx.auth.user, projectId, needed ?? roleForReading(type === 'query'));
    return next();
  });
