import { StepUpMethodSchema, type StepUpMethod } from '../../shared/schemas/step-up';
import { createRefreshCoordinator, type RefreshCoordinator, type TabSharing } from './session-refresh';

/**
 * A refused REST call: its status, the server's `{"detail": …}`, the answer's other fields (`data`: a
 * step-up refusal's `step_up_required` and `step_up_methods`, …) and, on 429, its Retry-After.
 */
export class ApiError extends Error {
  /** The proofs a step-up refusal asks for; null for every other refusal. */
  readonly stepUpMethods: StepUpMethod[] | null;

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly data: Readonly<Record<string, unknown>> = {},
    readonly retryAfterS: number | null = null,
  ) {
    super(detail || `HTTP ${status}`);
    this.name = 'ApiError';
    this.stepUpMethods = stepUpMethodsIn(data);
  }

  /** A 401 that asks the signed-in user to prove who they are again: the session is fine, so it is never refreshed. */
  get stepUpRequired(): boolean {
    return this.data.step_up_required === true;
  }
}

/** The proofs a `{"detail", "step_up_required": true, "step_up_methods"}` answer asks for; null for any other body. */
export function stepUpMethodsIn(body: unknown): StepUpMethod[] | null {
  const answer = body as { step_up_required?: unknown; step_up_methods?: unknown } | null | undefined;
  if (answer?.step_up_required !== true || !Array.isArray(answer.step_up_methods)) return null;
  return answer.step_up_methods.filter((method): method is StepUpMethod => StepUpMethodSchema.safeParse(method).success);
}

/** The text to show for a failed REST call: the server's detail, else the screen's fallback (network failures, 500s). */
export function apiErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.status >= 500 || !error.detail) return fallback;
  return error.detail;
}

/** A refused answer as an ApiError: its `{detail}` and the rest of its body (a step-up's methods). */
export async function errorOf(response: Response): Promise<ApiError> {
  let detail = '';
  let data: Record<string, unknown> = {};
  try {
    const body = (await response.json()) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const { detail: text, ...rest } = body as Record<string, unknown>;
      if (typeof text === 'string') detail = text;
      data = rest;
    }
  } catch {
    /* not JSON: the screen's fallback text */
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, detail, data, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a browser realm's REST API lives and how its session is kept. */
export interface ApiRealm {
  /** Prefix of every path: `/api/v1`, `/hosted/{project_key}/api/v1`. */
  baseUrl: string;
  /** Headers of every call besides Accept and Content-Type (the hosted pages' Accept-Language). */
  headers?: () => Record<string, string>;
  /** The realm's one refresh (shared with its tRPC link, if any); without it a 401 is final. */
  session?: RefreshCoordinator;
}

export interface ApiClient {
  /** A call that needs no session: a 401 is an answer (wrong password, refused passkey), not an expired session. */
  call<T>(method: HttpMethod, path: string, body?: unknown): Promise<T>;
  /**
   * A call that needs the session: on a 401 it waits for the realm's one refresh and is retried once,
   * unless the 401 asks for a step-up (the session is fine: the user must prove who they are).
   */
  session<T>(method: HttpMethod, path: string, body?: unknown): Promise<T>;
  /** A file POSTed as it is (its own media type, extra headers), with the session and its one retry after a refresh. */
  upload<T>(path: string, file: Blob, type: string, headers?: Record<string, string>): Promise<T>;
}

/**
 * The browser's REST client, same origin, tokens only in the HttpOnly cookies the server sets for the
 * realm. A call with a body sends JSON (the server's CSRF guard asks for it); one without sends no
 * Content-Type, since an empty JSON body is refused. Answers the parsed JSON; throws an ApiError on a
 * 4xx/5xx (a network failure rejects as fetch does).
 */
export function createApiClient(realm: ApiRealm): ApiClient {
  const sendRaw = (method: HttpMethod, path: string, body?: { payload: BodyInit; headers: Record<string, string> }) =>
    fetch(`${realm.baseUrl}${path}`, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...realm.headers?.(), ...body?.headers },
      body: body?.payload,
    });
  const send = (method: HttpMethod, path: string, body: unknown) =>
    sendRaw(method, path, body === undefined ? undefined : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  const answerOf = async <T>(response: Response): Promise<T> => {
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  };
  /** Sends once, and once more after the realm's refresh when the session had expired. */
  const withSession = async <T>(sendOnce: () => Promise<Response>): Promise<T> => {
    const sentAt = Date.now();
    const response = await sendOnce();
    if (response.status !== 401 || !realm.session) return answerOf<T>(response);
    const refused = await errorOf(response);
    if (refused.stepUpRequired || !(await realm.session.refreshFor(sentAt))) throw refused;
    return answerOf<T>(await sendOnce());
  };

  return {
    async call<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
      return answerOf<T>(await send(method, path, body));
    },
    session<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
      return withSession<T>(() => send(method, path, body));
    },
    upload<T>(path: string, file: Blob, type: string, headers: Record<string, string> = {}): Promise<T> {
      return withSession<T>(() => sendRaw('POST', path, { payload: file, headers: { ...headers, 'content-type': type } }));
    },
  };
}

/** The dashboard's REST routes (/api/v1/…) with the platform cookies; `session` is the one its tRPC link uses. */
export function createPlatformApiClient(session: RefreshCoordinator): ApiClient {
  return createApiClient({ baseUrl: '/api/v1', session });
}

/**
 * A project's hosted pages' browser API (/hosted/{project_key}/api/v1) with the cookies the server sets
 * for the project's path, refreshed by POST …/auth/refresh. Every call asks in the pages' language
 * (`locale`), which the mails it sends follow when the user has saved none.
 */
export function createHostedApiClient(projectKey: string, locale: () => string, tabs?: TabSharing): ApiClient {
  const realm: ApiRealm = { baseUrl: `/hosted/${encodeURIComponent(projectKey)}/api/v1`, headers: () => ({ 'accept-language': locale() }) };
  const anonymous = createApiClient(realm);
  const session = createRefreshCoordinator({ realm: `hosted:${projectKey}`, refresh: () => anonymous.call('POST', '/auth/refresh', {}), tabs });
  return createApiClient({ ...realm, session });
}
