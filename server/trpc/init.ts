import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { Deps } from '../deps.js';
import { AppError, answerableError, trpcCodeOf } from '../errors.js';
import { logUnavailable } from '../lib/outage-log.js';
import { dashboardInfoOf } from '../plugins/request-info.js';

export function createContextFactory(deps: Deps) {
  return ({ req, res }: CreateFastifyContextOptions) => ({ deps, req, res, request: dashboardInfoOf(req) });
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
/** The base of every procedure (trpc/procedures.ts derives them from the declared routes). */
export const publicProcedure = t.procedure.use(domainErrors);
