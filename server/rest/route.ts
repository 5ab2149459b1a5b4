import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { ProjectRow } from '../db/schema.js';
import type { RequestInfo } from '../lib/request-info.js';
import type { MonitorScope } from '../modules/realms/realm.js';
import type { Realm } from '../modules/realms/realm.js';
import type { Authenticated } from '../modules/sessions/sessions.service.js';
import type { PortalSession } from '../modules/sso/admin-portal.service.js';
import type { ProjectRole } from '../../shared/schemas/teams.js';

/**
 * One REST route, declared once: the mount registers it with Fastify (auth hook, validation,
 * serialization) and the OpenAPI document is generated from the same declaration.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call, on two axes, checked before the input is validated:
 * - `realm`: whose accounts the call works on and how the caller's token travels. `platform`: the
 *   platform's developers (a Bearer header, else the dashboard's HttpOnly cookie); `apiKey`: a
 *   project's backend with its key in X-API-Key, for the project's end users (a Bearer header only);
 *   `hosted`: a project's hosted pages, the realm the project of the `:project_key` path parameter
 *   (a Bearer header, else the hosted pages' cookie).
 * - `session`: `none` (no token is read), `optional` (a token that works signs the caller in, any
 *   other leaves them anonymous), `required` (401 without a live session).
 * - `role` (platform only): `admin` for the admin area (monitoring scope: the platform's accounts);
 *   `team` for the team of the project of the `:id` path parameter (viewer to read, admin to change;
 *   monitoring scope: its end users), or the named team role for actions that need another.
 */
export interface Access {
  realm: AccessRealm;
  session: 'none' | 'optional' | 'required';
  role?: 'admin' | 'team' | ProjectRole;
}
export type AccessRealm = 'platform' | 'apiKey' | 'hosted' | 'portal';

/** The callers most routes have, by name. */
export const ANYONE = { realm: 'platform', session: 'none' } as const satisfies Access;
export const SIGNED_IN = { realm: 'platform', session: 'required' } as const satisfies Access;
export const ADMIN = { realm: 'platform', session: 'required', role: 'admin' } as const satisfies Access;
export const TEAM = { realm: 'platform', session: 'required', role: 'team' } as const satisfies Access;
export const API_KEY = { realm: 'apiKey', session: 'none' } as const satisfies Access;
export const HOSTED = { realm: 'hosted', session: 'none' } as const satisfies Access;
/** The setup portal's browser API: the session a one-time setup link opened (its cookie), for one organization. */
export const PORTAL = { realm: 'portal', session: 'none' } as const satisfies Access;
export const teamRole = <R extends ProjectRole>(role: R) => ({ realm: 'platform', session: 'required', role }) as const;

/** Whether the caller's role is checked against a project's team (the `:id` of the path, `id` of a procedure's input). */
export const onProjectTeam = (access: Access): boolean => access.role !== undefined && access.role !== 'admin';

/** Error statuses a route answers `{"detail"}` with besides the ones its kind always has (see openapi/document.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

export const TAGS = [
  { name: 'Auth', description: 'Developer accounts on the platform: sign-up, e-mail verification, sessions, passwords.' },
  { name: 'Profile', description: "The signed-in developer's own account." },
  { name: 'Captcha', description: 'What the sign-up and sign-in forms need to show a captcha.' },
  { name: 'Admin', description: 'Platform-wide monitoring; admin role required.' },
  { name: 'Projects', description: "The developer's projects, API keys, dashboard and analytics." },
  { name: 'Teams', description: "Who works on a project and as what: members, roles (owner, admin, viewer) and invitations by e-mail." },
  {
    name: 'Organizations',
    description: "A project's organizations of end users (members, roles, invitations), its organization roles and permissions, and the custom claims of its access tokens, as its team manages them.",
  },
  {
    name: 'Enterprise SSO',
    description: "A project's SAML 2.0 and OpenID Connect connections for its organizations (the values each IdP needs, the e-mail domains they own and their DNS proof), as its team manages them.",
  },
  {
    name: 'Setup portal',
    description:
      "The browser API of the self-serve setup portal (/portal): an organization's IT admin, with the session a one-time setup link opens (an HttpOnly cookie scoped to /portal), sets up that organization's enterprise SSO and nothing else.",
  },
  { name: 'Project monitoring', description: "One project's end users, login attempts, devices and sessions." },
  { name: 'Public API', description: "The end-user API a developer's backend calls with its project's key (X-API-Key). No cookies." },
  {
    name: 'Hosted pages',
    description:
      "The browser API of a project's hosted pages (/hosted/{project_key}): the public API's account routes for the signed-in end user, with tokens in HttpOnly cookies scoped to the project's path. Same-origin JSON only; apps use OpenID Connect instead.",
  },
  { name: 'Health', description: 'Liveness and the signing keys.' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/** A path parameter taken as it is, without validation (so no 422 is documented for it). */
export const UnvalidatedParam = z.string();

/** What a caller is, once its credentials are checked. */
export interface Anonymous {
  /** Whose accounts the call works on: the platform's, or the API key's project's end users. */
  realm: Realm;
  /** The client's address and browser; on the public API, the end user's (X-End-User-IP / -Agent). */
  info: RequestInfo;
}
export type CallerOf<A extends Access> = Anonymous &
  (A['session'] extends 'required' ? { session: Authenticated } : A['session'] extends 'optional' ? { session: Authenticated | null } : unknown) &
  (A['realm'] extends 'platform' ? unknown : A['realm'] extends 'apiKey' | 'hosted' ? { project: ProjectRow } : { project?: ProjectRow }) &
  (A['role'] extends string ? { scope: MonitorScope } : unknown) &
  (A['realm'] extends 'portal' ? { portal: PortalSession } : unknown);

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<A extends Access, B, Q, P> {
  deps: Deps;
  caller: CallerOf<A>;
  body: Output<B>;
  query: Output<Q>;
  params: Output<P>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Answers by status; the lowest 2xx (or the 302 of a browser navigation) is the route's success status, set before the handler runs. */
export type Responses = Partial<Record<200 | 201 | 202 | 302 | 503, z.ZodType>>;

/** A browser navigation's answer: a redirect (the handler calls `reply.redirect`), documented with its Location and no body. */
export const REDIRECT = z.undefined();
type AnswerOf<R extends Responses> = { [K in keyof R]: R[K] extends z.ZodType ? z.input<R[K]> : never }[keyof R];

/** What a streamed (non-JSON) answer may be. */
export type StreamedMediaType = 'text/csv' | 'application/x-ndjson' | 'application/octet-stream' | 'text/event-stream';

export interface RouteDoc {
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Statuses beyond the automatic ones of the route's kind. */
  errors?: ErrorStatus[];
  /** Request headers, documented only (e.g. X-End-User-IP). */
  headers?: z.ZodObject;
  /** The body may be left out entirely (it is parsed as `{}` then). */
  bodyOptional?: boolean;
  /** The success answer's media types when it is not JSON (the handler sets the reply's type and serializer). */
  produces?: StreamedMediaType | StreamedMediaType[];
  /** Descriptions of the answers, by status: 'OK' and 'Created' otherwise. */
  responses?: Partial<Record<keyof Responses, string>>;
}

export interface Route<
  M extends HttpMethod = HttpMethod,
  A extends Access = Access,
  B = unknown,
  Q = unknown,
  P = unknown,
  R extends Responses = Responses,
  N extends string | undefined = string | undefined,
  W extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: M;
  /** Fastify style: /api/v1/projects/:id */
  url: string;
  access: A;
  body?: B;
  query?: Q;
  params?: P;
  response: R;
  doc: RouteDoc;
  /**
   * The dashboard calls this operation too: its tRPC procedure's name (trpc/router.ts mounts it),
   * with one input (the path parameters, query and body in one object) and the same answer.
   */
  procedure?: N;
  /**
   * The body is read by the handler as a stream (`request.body` is the request's Readable), in any of these media
   * types, never buffered or validated by the mount; `schema` is what the document shows for each type.
   */
  streamedBody?: { types: Record<string, z.ZodType> };
  /** What the procedure answers instead, when the browser must see less (no tokens in a page's reach). */
  browserResponse?: W;
  handler(context: RouteContext<A, B, Q, P>): Promise<AnswerOf<R>>;
}

/** Any declared route, as the mount, the procedures and the document see it. */
export type AnyRoute = Omit<
  Route<HttpMethod, Access, z.ZodType | undefined, z.ZodObject | undefined, z.ZodObject | undefined, Responses, string | undefined, z.ZodType | undefined>,
  'handler'
> & { handler(context: RouteContext<Access, unknown, unknown, unknown>): Promise<unknown> };

/** Declares a route; the generics make the handler's body, query, params, caller and answer typed, and the procedure's types follow from them. */
export function defineRoute<
  const M extends HttpMethod,
  const A extends Access,
  R extends Responses,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  const N extends string | undefined = undefined,
  W extends z.ZodType | undefined = undefined,
>(route: Route<M, A, B, Q, P, R, N, W>): Route<M, A, B, Q, P, R, N, W> {
  return route;
}

/** The status a route answers on success. */
export function successStatus(route: Pick<AnyRoute, 'response'>): number {
  return Math.min(...Object.keys(route.response).map(Number).filter((status) => status < 400));
}
