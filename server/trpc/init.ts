import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { Deps } from '../deps.js';
import { AppError, trpcCodeOf } from '../errors.js';
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
    const retryAfterS = error.cause instanceof AppError ? error.cause.retryAfterS : undefined;
    return { ...shape, message: safe, data: { ...data, ...(retryAfterS ? { retryAfterS } : {}) } };
  },
});

/** Maps the one domain error type to tRPC codes, once, for every procedure. */
const domainErrors = t.middleware(async ({ next, ctx }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
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
