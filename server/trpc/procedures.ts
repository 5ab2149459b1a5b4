import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { parseInput, type InputParser } from '../lib/validate.js';
import { identifierOf, type Identify } from '../rest/callers.js';
import type { AnyRoute, Responses, Route } from '../rest/route.js';
import { publicProcedure, router } from './init.js';

type InputOfSchema<S> = S extends z.ZodType ? z.input<S> : unknown;
/** A procedure's one input: the route's path parameters, query and body side by side. */
type MergedInput<P, Q, B> = InputOfSchema<P> & InputOfSchema<Q> & InputOfSchema<B>;
/** Left out (or void) when no field is required, as a REST call may leave out an empty query or body. */
type ProcedureInput<P, Q, B> = [P, Q, B] extends [undefined, undefined, undefined]
  ? void
  : {} extends MergedInput<P, Q, B>
    ? { [K in keyof MergedInput<P, Q, B>]: MergedInput<P, Q, B>[K] } | undefined
    : { [K in keyof MergedInput<P, Q, B>]: MergedInput<P, Q, B>[K] };

type SuccessSchema<R extends Responses> = R extends { 200: infer S extends z.ZodType } ? S : R extends { 201: infer S extends z.ZodType } ? S : never;
type ProcedureOutput<R extends Responses, W> = W extends z.ZodType ? z.output<W> : z.output<SuccessSchema<R>>;

/** The tRPC procedure a declared route becomes: a query for a GET, a mutation otherwise. */
export type ProcedureOf<T> =
  T extends Route<infer M, infer _A, infer B, infer Q, infer P, infer R, infer _N, infer W>
    ? M extends 'GET'
      ? TRPCQueryProcedure<{ input: ProcedureInput<P, Q, B>; output: ProcedureOutput<R, W>; meta: unknown }>
      : TRPCMutationProcedure<{ input: ProcedureInput<P, Q, B>; output: ProcedureOutput<R, W>; meta: unknown }>
    : never;

/** The procedures of a list of routes: those declared with a `procedure` name, under that name. */
export type ProceduresOf<L extends readonly AnyRoute[]> = {
  [T in L[number] as NonNullable<T['procedure']>]: ProcedureOf<T>;
};

interface SplitInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

const keysOf = (schema: z.ZodObject | undefined): string[] => (schema ? Object.keys(schema.shape) : []);

/**
 * The one input of a procedure, read as the REST route reads its three parts: the path parameters
 * and query by their names, the body from the rest, each with its own schema (so refinements on
 * a body and the wording of every refusal are the same on both transports).
 */
function splitInputParser(route: AnyRoute): InputParser<unknown, SplitInput> {
  const paramKeys = keysOf(route.params);
  const queryKeys = keysOf(route.query);
  const pick = (raw: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((key) => key in raw).map((key) => [key, raw[key]]));
  return ((input: unknown) => {
    if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) throw new AppError('UNPROCESSABLE_CONTENT', 'Request body must be a JSON object');
    const raw = (input ?? {}) as Record<string, unknown>;
    const rest = Object.fromEntries(Object.entries(raw).filter(([key]) => !paramKeys.includes(key) && !queryKeys.includes(key)));
    // In Fastify's order, so a call breaking two rules hears of the same one on both transports.
    const params = route.params ? parseInput(route.params, pick(raw, paramKeys)) : undefined;
    const body = route.body ? parseInput(route.body, rest) : undefined;
    const query = route.query ? parseInput(route.query, pick(raw, queryKeys)) : undefined;
    return { params, query, body };
  }) as InputParser<unknown, SplitInput>;
}

/** The project a procedure's raw input names (`id`, as the REST path's `:id`), before it is validated. */
function rawProjectIdOf(raw: unknown): string | undefined {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

function procedureOf(route: AnyRoute) {
  const success = route.response[200] ?? route.response[201];
  if (!success) throw new Error(`${route.method} ${route.url} answers no JSON: it cannot be the procedure ${route.procedure}`);
  const identifiers = new WeakMap<Deps, Identify>();
  const identified = publicProcedure.use(async ({ ctx, getRawInput, next }) => {
    let identify = identifiers.get(ctx.deps);
    if (!identify) identifiers.set(ctx.deps, (identify = identifierOf(ctx.deps, route)));
    const caller = await identify(ctx.req, async () => rawProjectIdOf(await getRawInput()));
    return next({ ctx: { ...ctx, caller } });
  });
  // A route without input takes none (a call then sends no body, as tRPC's client does for void).
  const takesInput = route.params || route.query || route.body;
  const procedure = (takesInput ? identified.input(splitInputParser(route)) : identified).output(route.browserResponse ?? success);
  const resolve = ({ ctx, input }: { ctx: { deps: Deps; caller: unknown; req: never; res: never }; input: SplitInput | undefined }) =>
    route.handler({ deps: ctx.deps, caller: ctx.caller as never, ...(input ?? { params: undefined, query: undefined, body: undefined }), request: ctx.req, reply: ctx.res } as never);
  return route.method === 'GET' ? procedure.query(resolve as never) : procedure.mutation(resolve as never);
}

/**
 * A router of the routes declared with a `procedure` name: each is the same operation as its REST
 * route (access, validation, handler), with its static types, so the dashboard keeps end-to-end types
 * and nothing is written twice.
 */
export function routerOf<const L extends readonly AnyRoute[]>(routes: L) {
  const procedures: Record<string, ReturnType<typeof procedureOf>> = {};
  for (const route of routes) {
    if (!route.procedure) continue;
    if (procedures[route.procedure]) throw new Error(`Two routes are the procedure ${route.procedure}`);
    procedures[route.procedure] = procedureOf(route);
  }
  return router(procedures as unknown as ProceduresOf<L>);
}
