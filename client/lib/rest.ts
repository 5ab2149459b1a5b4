/** A refused REST call: the server's `{"detail": …}` and its status. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail || `HTTP ${status}`);
    this.name = 'RestError';
  }
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
    try {
      const answer = (await response.json()) as { detail?: unknown };
      if (typeof answer.detail === 'string') detail = answer.detail;
    } catch {
      /* not JSON: the screen's fallback text */
    }
    throw new RestError(response.status, detail);
  }
  return (await response.json()) as T;
}

/**
 * `restRequest` that survives an expired access token: on 401 it runs `renewSession` (a tRPC call that
 * goes through the refresh link, so the one shared refresh renews the cookies) and retries once.
 */
export function createRestClient(renewSession: () => Promise<unknown>) {
  return async <T>(method: Method, path: string, body?: unknown): Promise<T> => {
    try {
      return await restRequest<T>(method, path, body);
    } catch (error) {
      if (!(error instanceof RestError) || error.status !== 401) throw error;
      try {
        await renewSession();
      } catch {
        throw error;
      }
      return restRequest<T>(method, path, body);
    }
  };
}
