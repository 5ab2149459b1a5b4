import type { StepUpMethod } from '../../shared/schemas/step-up';

/** A refused REST call: the server's `{"detail": …}` and its status (and, for a step-up refusal, the proofs it asks for). */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly stepUpMethods: StepUpMethod[] | null = null,
  ) {
    super(detail || `HTTP ${status}`);
    this.name = 'RestError';
  }
}

/** The proofs a `{"detail", "step_up_required": true, "step_up_methods"}` answer asks for; null for any other body. */
export function stepUpMethodsIn(body: unknown): StepUpMethod[] | null {
  const answer = body as { step_up_required?: unknown; step_up_methods?: unknown } | null;
  if (answer?.step_up_required !== true || !Array.isArray(answer.step_up_methods)) return null;
  return answer.step_up_methods.filter((method): method is StepUpMethod => method === 'password' || method === 'totp' || method === 'passkey');
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One call to the platform's REST API (/api/v1/…) with the session cookies, same origin. A call with a
 * body sends JSON (the server's CSRF guard asks for it); one without sends no Content-Type, since an
 * empty JSON body is refused. Answers the parsed JSON; throws a RestError on a 4xx/5xx.
 */
export async function restRequest<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const withBody = body !== undefined;
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: withBody ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
    body: withBody ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) {
    let detail = '';
    let stepUp: StepUpMethod[] | null = null;
    try {
      const answer = (await response.json()) as { detail?: unknown };
      if (typeof answer.detail === 'string') detail = answer.detail;
      stepUp = stepUpMethodsIn(answer);
    } catch {
      /* not JSON: the screen's fallback text */
    }
    throw new RestError(response.status, detail, stepUp);
  }
  return (await response.json()) as T;
}

/**
 * `restRequest` that survives an expired access token: on 401 it runs `renewSession` (a tRPC call that
 * goes through the refresh link, so the one shared refresh renews the cookies) and retries once. A 401
 * that asks for a step-up is not an expired session: it reaches the caller as it is.
 */
export function createRestClient(renewSession: () => Promise<unknown>) {
  return async <T>(method: Method, path: string, body?: unknown): Promise<T> => {
    try {
      return await restRequest<T>(method, path, body);
    } catch (error) {
      if (!(error instanceof RestError) || error.status !== 401 || error.stepUpMethods) throw error;
      try {
        await renewSession();
      } catch {
        throw error;
      }
      return restRequest<T>(method, path, body);
    }
  };
}
