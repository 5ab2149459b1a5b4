import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { ProjectRow } from '../db/schema.js';
import type { RequestInfo } from '../lib/request-info.js';
import type { MonitorScope } from '../modules/realms/realm.js';
import type { Realm } from '../modules/realms/realm.js';
import type { Authenticated } from '../modules/sessions/sessions.service.js';
import type { ProjectRole } from '../../shared/schemas/teams.js';

/**
 * One REST route, declared once: the mount registers it with Fastify (auth hook, validation,
 * serialization) and the OpenAPI document is generated from the same declaration.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call, checked before the input is validated:
 * - `none`, `optionalBearer`: anyone (the second documents that a token is read when present);
 * - `bearer`: a platform access token (Authorization header, or the browser's HttpOnly cookie);
 * - `admin`: the same, with the admin role; the monitoring scope is the platform's accounts;
 * - `projectMember`: the same, on the team of the project of the `:id` path parameter, as a viewer for a
 *   GET and an admin for a change; the monitoring scope is its end users;
 * - `apiKey…`: a project's key in X-API-Key (the realm is that project's end users), with an end
 *   user's access token required, optional, or not read;
 * - `hosted…`: a project's hosted pages in the browser: the realm is the project of the
 *   `:project_key` path parameter, the end user's token its hosted cookie (or a Bearer header).
 */
export type Auth =
  | 'none'
  | 'optionalBearer'
  | 'bearer'
  | 'admin'
  | 'projectMember'
  | 'apiKey'
  | 'apiKeyAndBearer'
  | 'apiKeyAndOptionalBearer'
  | 'hosted'
  | 'hostedSession';

/** Error statuses a route answers `{"detail"}` with besides the ones its kind always has (see openapi/document.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

export const TAGS = [
  { name: 'Auth', description: 'Developer accounts on the platform: sign-up, e-mail verification, sessions, passwords.' },
  { name: 'Profile', description: "The signed-in developer's own account." },
  { name: 'Captcha', description: 'What the sign-up and sign-in forms need to show a captcha.' },
  { name: 'Admin', description: 'Platform-wide monitoring; admin role required.' },
  { name: 'Projects', description: "The developer's projects, API keys, dashboard and analytics." },
  { name: 'Teams', description: "Who works on a project and as what: members, roles (owner, admin, viewer) and invitations by e-mail." },
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
export interface SignedIn extends Anonymous {
  session: Authenticated;
}
export interface Monitoring extends SignedIn {
  scope: MonitorScope;
}
/** A project's caller: its backend (API key) or its hosted pages. */
export interface ApiClient extends Anonymous {
  project: ProjectRow;
}
export interface ApiClientWithUser extends ApiClient {
  session: Authenticated;
}

export type CallerOf<A extends Auth> = A extends 'bearer'
  ? SignedIn
  : A extends 'admin' | 'projectMember'
    ? Monitoring
    : A extends 'apiKeyAndBearer' | 'hostedSession'
      ? ApiClientWithUser
      : A extends 'apiKey' | 'apiKeyAndOptionalBearer' | 'hosted'
        ? ApiClient
        : Anonymous;

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<A extends Auth, B, Q, P> {
  deps: Deps;
  caller: CallerOf<A>;
  body: Output<B>;
  query: Output<Q>;
  params: Output<P>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Answers by status; the lowest 2xx (or the 302 of a browser navigation) is the route's success status, set before the handler runs. */
export type Responses = Partial<Record<200 | 201 | 302 | 503, z.ZodType>>;

/** A browser navigation's answer: a redirect (the handler calls `reply.redirect`), documented with its Location and no body. */
export const REDIRECT = z.undefined();
type AnswerOf<R extends Responses> = { [K in keyof R]: R[K] extends z.ZodType ? z.input<R[K]> : never }[keyof R];

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
  /** The success answer's media type when it is not JSON (the handler sets the reply's type and serializer). */
  produces?: 'text/csv';
  /** Descriptions of the answers, by status: 'OK' and 'Created' otherwise. */
  responses?: Partial<Record<keyof Responses, string>>;
}

export interface Route<A extends Auth = Auth, B = unknown, Q = unknown, P = unknown, R extends Responses = Responses> {
  method: HttpMethod;
  /** Fastify style: /api/v1/projects/:id */
  url: string;
  auth: A;
  /** For `projectMember` routes: the role on the project's team they need, when not the default (viewer for a GET, admin otherwise). */
  role?: ProjectRole;
  body?: B;
  query?: Q;
  params?: P;
  response: R;
  doc: RouteDoc;
  handler(context: RouteContext<A, B, Q, P>): Promise<AnswerOf<R>>;
}

/** Any declared route, as the mount and the document see it. */
export type AnyRoute = Route<Auth, z.ZodType | undefined, z.ZodObject | undefined, z.ZodObject | undefined, Responses>;

/** Declares a route; the generics only make the handler's body, query, params, caller and answer typed. */
export function defineRoute<
  A extends Auth,
  R extends Responses,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
>(route: Route<A, B, Q, P, R>): AnyRoute {
  return route as unknown as AnyRoute;
}

/** The status a route answers on success. */
export function successStatus(route: Pick<AnyRoute, 'response'>): number {
  return Math.min(...Object.keys(route.response).map(Number).filter((status) => status < 400));
}
