import { describe, expect, it, vi } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/router';
import { ApiError, apiErrorMessage, createApiClient, createHostedApiClient, createPlatformApiClient } from '../../client/lib/api-client';
import { errorMessage } from '../../client/lib/errors';
import { createRefreshCoordinator, type TabChannel, type TabSharing } from '../../client/lib/session-refresh';
import { stepUpMethodsOf } from '../../client/lib/step-up';
import { createRefreshLink } from '../../client/lib/trpc';
import { mockLink, sampleUser, unauthorized } from './utils';

/**
 * The browser's one REST client and its one refresh: `fetch` answers from a table of "METHOD /path"
 * handlers over a session that is valid or not; every call is recorded.
 */

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

function json({ status, body = {}, headers = {} }: Answer) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A server whose access cookie has expired; `refresh` (its answer decides) renews it. */
function mockServer({ refreshOk = true, routes = {} }: { refreshOk?: boolean; routes?: Record<string, (valid: boolean) => Answer> } = {}) {
  const calls: { key: string; init: RequestInit | undefined }[] = [];
  let valid = false;
  let releaseRefresh: () => void = () => {};
  const refreshAnswered = new Promise<void>((resolve) => {
    releaseRefresh = resolve;
  });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push({ key, init });
    if (key.endsWith('/auth/refresh')) {
      // Held until the test lets it answer: every 401 of the burst has arrived by then.
      await refreshAnswered;
      if (!refreshOk) return json({ status: 401, body: { detail: 'Invalid refresh token' } });
      valid = true;
      return json({ status: 200, body: { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 } });
    }
    const route = routes[key];
    if (route) return json(route(valid));
    return valid ? json({ status: 200, body: { ok: key } }) : json({ status: 401, body: { detail: 'Not authenticated' } });
  });
  const callsTo = (suffix: string) => calls.filter((call) => call.key.endsWith(suffix));
  return { calls, callsTo, releaseRefresh };
}

/** A realm whose refresh is the REST route, like the hosted pages'. */
function restRealm(options: { onRefreshFailed?: () => void; tabs?: TabSharing } = {}) {
  const anonymous = createApiClient({ baseUrl: '/api/v1' });
  const session = createRefreshCoordinator({
    realm: 'test',
    refresh: () => anonymous.call('POST', '/auth/refresh', {}),
    onRefreshFailed: options.onRefreshFailed,
    tabs: options.tabs ?? { kind: 'none' },
  });
  return { api: createApiClient({ baseUrl: '/api/v1', session }), session };
}

/** Resolves once `count` calls to `suffix` were made (the requests of a burst are all in flight). */
async function sent(calls: { key: string }[], suffix: string, count: number) {
  await vi.waitFor(() => expect(calls.filter((call) => call.key.endsWith(suffix)).length).toBeGreaterThanOrEqual(count));
}

describe('ApiError', () => {
  it("carries the status, the server's detail and its other fields (a step-up refusal's proofs)", async () => {
    mockServer({
      routes: {
        'POST /api/v1/passkeys': () => ({
          status: 401,
          body: { detail: 'Confirm it is you to continue', step_up_required: true, step_up_methods: ['password', 'passkey', 'sms'] },
        }),
      },
    });
    const error = await createApiClient({ baseUrl: '/api/v1' })
      .call('POST', '/passkeys', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const refused = error as ApiError;
    expect(refused.status).toBe(401);
    expect(refused.detail).toBe('Confirm it is you to continue');
    expect(refused.message).toBe('Confirm it is you to continue');
    expect(refused.data).toEqual({ step_up_required: true, step_up_methods: ['password', 'passkey', 'sms'] });
    expect(refused.stepUpRequired).toBe(true);
    // Only the proofs the client knows.
    expect(refused.stepUpMethods).toEqual(['password', 'passkey']);
    expect(stepUpMethodsOf(refused)).toEqual(['password', 'passkey']);
    expect(refused.retryAfterS).toBeNull();
  });

  it("keeps a 429's Retry-After, in seconds", async () => {
    mockServer({ routes: { 'POST /api/v1/auth/resend-verification': () => ({ status: 429, body: { detail: 'Too many requests' }, headers: { 'retry-after': '42' } }) } });
    const error = (await createApiClient({ baseUrl: '/api/v1' })
      .call('POST', '/auth/resend-verification', { email: 'a@b.co' })
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.detail, error.retryAfterS, error.stepUpRequired, error.stepUpMethods]).toEqual([429, 'Too many requests', 42, false, null]);
  });

  it('shows the detail of a refusal, and the fallback for a server failure or an answer that is not JSON', async () => {
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ status: 409, body: { detail: 'Already there' } }))
      .mockResolvedValueOnce(json({ status: 500, body: { detail: 'Internal Server Error' } }))
      .mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }));
    const api = createApiClient({ baseUrl: '' });
    const [conflict, failure, gateway] = await Promise.all([api.call('GET', '/a'), api.call('GET', '/b'), api.call('GET', '/c')].map((p) => p.catch((e: unknown) => e)));
    expect(apiErrorMessage(conflict, 'Fallback')).toBe('Already there');
    expect(errorMessage(conflict, 'Fallback')).toBe('Already there');
    expect(apiErrorMessage(failure, 'Fallback')).toBe('Fallback');
    expect(errorMessage(failure, 'Fallback')).toBe('Fallback');
    expect((gateway as ApiError).status).toBe(502);
    expect((gateway as ApiError).message).toBe('HTTP 502');
    expect(apiErrorMessage(gateway, 'Fallback')).toBe('Fallback');
  });
});

describe('REST client', () => {
  it('sends JSON only with a body, and the realm headers with every call', async () => {
    const { calls } = mockServer({ routes: { 'POST /hosted/pk_1/api/v1/auth/logout': () => ({ status: 200, body: {} }), 'GET /hosted/pk_1/api/v1/project': () => ({ status: 200, body: {} }) } });
    const api = createHostedApiClient('pk_1', () => 'de', { kind: 'none' });
    await api.call('POST', '/auth/logout', {});
    await api.call('GET', '/project');
    expect(calls.map((call) => [call.key, call.init?.headers, call.init?.body, call.init?.credentials])).toEqual([
      ['POST /hosted/pk_1/api/v1/auth/logout', { accept: 'application/json', 'accept-language': 'de', 'content-type': 'application/json' }, '{}', 'same-origin'],
      ['GET /hosted/pk_1/api/v1/project', { accept: 'application/json', 'accept-language': 'de' }, undefined, 'same-origin'],
    ]);
  });

  it('never refreshes for a call that needs no session: its 401 is the answer', async () => {
    const { callsTo } = mockServer({ routes: { 'POST /api/v1/auth/login': () => ({ status: 401, body: { detail: 'Incorrect email or password' } }) } });
    const { api } = restRealm();
    await expect(api.call('POST', '/auth/login', {})).rejects.toThrow('Incorrect email or password');
    expect(callsTo('/auth/refresh')).toHaveLength(0);
  });

  it('leaves a step-up refusal to the caller: nothing is refreshed or retried', async () => {
    const onRefreshFailed = vi.fn();
    const { callsTo } = mockServer({
      routes: { 'POST /api/v1/passkeys': () => ({ status: 401, body: { detail: 'Confirm it is you to continue', step_up_required: true, step_up_methods: ['password'] } }) },
    });
    const { api } = restRealm({ onRefreshFailed });
    const error = (await api.session('POST', '/passkeys', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.stepUpMethods).toEqual(['password']);
    expect(callsTo('/passkeys')).toHaveLength(1);
    expect(callsTo('/auth/refresh')).toHaveLength(0);
    expect(onRefreshFailed).not.toHaveBeenCalled();
  });

  it('refreshes once for N concurrent 401s, then retries each call once', async () => {
    const { calls, callsTo, releaseRefresh } = mockServer();
    const { api } = restRealm();
    const answers = Promise.all(['/a', '/b', '/c', '/d', '/e'].map((path) => api.session<{ ok: string }>('GET', path)));
    await sent(calls, '/auth/refresh', 1);
    releaseRefresh();
    expect((await answers).map((answer) => answer.ok)).toEqual(['GET /api/v1/a', 'GET /api/v1/b', 'GET /api/v1/c', 'GET /api/v1/d', 'GET /api/v1/e']);
    expect(callsTo('/auth/refresh')).toHaveLength(1);
    expect(callsTo('/auth/refresh')[0]?.init?.body).toBe('{}');
    for (const path of ['/a', '/b', '/c', '/d', '/e']) expect(callsTo(path)).toHaveLength(2);
  });

  it('when the refresh fails, signs out once and hands every caller its own 401', async () => {
    const onRefreshFailed = vi.fn();
    const { calls, callsTo, releaseRefresh } = mockServer({ refreshOk: false });
    const { api } = restRealm({ onRefreshFailed });
    const failures = Promise.all(['/a', '/b', '/c'].map((path) => api.session('GET', path).catch((e: unknown) => e)));
    await sent(calls, '/auth/refresh', 1);
    releaseRefresh();
    const errors = (await failures) as ApiError[];
    expect(errors.map((error) => [error.status, error.detail])).toEqual([
      [401, 'Not authenticated'],
      [401, 'Not authenticated'],
      [401, 'Not authenticated'],
    ]);
    expect(callsTo('/auth/refresh')).toHaveLength(1);
    expect(onRefreshFailed).toHaveBeenCalledTimes(1);
    // No call is retried after a failed refresh.
    expect(callsTo('/a')).toHaveLength(1);
  });

  it('shares the refresh with the tRPC link of the same realm: a REST 401 and a tRPC UNAUTHORIZED renew the session once', async () => {
    let valid = false;
    const refresh = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      valid = true;
    });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => (valid ? json({ status: 200, body: { webhooks: [] } }) : json({ status: 401, body: { detail: 'Not authenticated' } })));
    const session = createRefreshCoordinator({ realm: 'platform', refresh, tabs: { kind: 'none' } });
    const rest = createPlatformApiClient(session);
    const trpcCalls: { path: string; input: unknown }[] = [];
    const trpcClient = createTRPCClient<AppRouter>({
      links: [
        createRefreshLink<AppRouter>({ session }),
        mockLink(
          {
            'auth.me': () => {
              if (!valid) throw unauthorized();
              return sampleUser;
            },
          },
          trpcCalls,
        ),
      ],
    });
    const [webhooks, me] = await Promise.all([rest.session('GET', '/projects/p_1/webhooks'), trpcClient.auth.me.query()]);
    expect(webhooks).toEqual({ webhooks: [] });
    expect(me).toEqual(sampleUser);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe('refresh shared by tabs', () => {
  /** One origin's Web Locks (one holder at a time, in order) and localStorage. */
  function lockingOrigin(): TabSharing {
    let queue: Promise<unknown> = Promise.resolve();
    const store = new Map<string, string>();
    return {
      kind: 'locks',
      locks: {
        request: <T,>(_name: string, callback: () => Promise<T>) => {
          const run = queue.then(callback);
          queue = run.catch(() => undefined);
          return run;
        },
      },
      storage: { getItem: (key) => store.get(key) ?? null, setItem: (key, value) => void store.set(key, value) },
    };
  }

  /** One origin's BroadcastChannels: a message reaches every other channel of the same name (not its sender). */
  function broadcastingOrigin(): TabSharing {
    const open: TabChannel[] = [];
    const names = new Map<TabChannel, string>();
    return {
      kind: 'channel',
      open: (name) => {
        const channel: TabChannel = {
          onmessage: null,
          postMessage: (data) => {
            for (const other of open) if (other !== channel && names.get(other) === name) other.onmessage?.(new MessageEvent('message', { data }));
          },
        };
        open.push(channel);
        names.set(channel, name);
        return channel;
      },
    };
  }

  for (const [how, origin] of [
    ['a Web Lock', lockingOrigin],
    ['a BroadcastChannel', broadcastingOrigin],
  ] as const) {
    it(`two tabs whose session expired at once refresh it once, through ${how}`, async () => {
      const { calls, callsTo, releaseRefresh } = mockServer();
      const shared = origin();
      const tabA = restRealm({ tabs: shared }).api;
      const tabB = restRealm({ tabs: shared }).api;
      const first = tabA.session('GET', '/a');
      await sent(calls, '/auth/refresh', 1);
      // Tab B's call fails while tab A's refresh is under way: B waits for it instead of spending the same refresh token.
      const second = tabB.session('GET', '/b');
      await sent(calls, '/b', 1);
      releaseRefresh();
      await expect(Promise.all([first, second])).resolves.toEqual([{ ok: 'GET /api/v1/a' }, { ok: 'GET /api/v1/b' }]);
      expect(callsTo('/auth/refresh')).toHaveLength(1);
      expect(callsTo('/b')).toHaveLength(2);
    });

    it(`a tab whose call was sent after the other tab's refresh refreshes again, through ${how}`, async () => {
      const { calls, callsTo, releaseRefresh } = mockServer({
        routes: { 'GET /api/v1/later': () => ({ status: 401, body: { detail: 'Not authenticated' } }) },
      });
      const shared = origin();
      const tabA = restRealm({ tabs: shared }).api;
      const tabB = restRealm({ tabs: shared }).api;
      releaseRefresh();
      await tabA.session('GET', '/a');
      expect(callsTo('/auth/refresh')).toHaveLength(1);
      // A call sent in the same millisecond as the refresh finished counts as sent before it.
      const refreshedAt = Date.now();
      await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(refreshedAt));
      await expect(tabB.session('GET', '/later')).rejects.toThrow('Not authenticated');
      expect(calls.map((call) => call.key)).toEqual([
        'GET /api/v1/a',
        'POST /api/v1/auth/refresh',
        'GET /api/v1/a',
        'GET /api/v1/later',
        'POST /api/v1/auth/refresh',
        'GET /api/v1/later',
      ]);
    });
  }

  it("each tab whose refresh fails signs out once; the other tab's waiting call tries its own", async () => {
    const refresh = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(undefined);
    const shared = lockingOrigin();
    const [failedA, failedB] = [vi.fn(), vi.fn()];
    const tabA = createRefreshCoordinator({ realm: 'platform', refresh, onRefreshFailed: failedA, tabs: shared });
    const tabB = createRefreshCoordinator({ realm: 'platform', refresh, onRefreshFailed: failedB, tabs: shared });
    const sentAt = Date.now();
    expect(await Promise.all([tabA.refreshFor(sentAt), tabA.refreshFor(sentAt), tabB.refreshFor(sentAt)])).toEqual([false, false, true]);
    expect(failedA).toHaveBeenCalledTimes(1);
    expect(failedB).not.toHaveBeenCalled();
  });

  it('keeps realms apart: the platform and a hosted project refresh their own sessions', async () => {
    const refreshPlatform = vi.fn(async () => undefined);
    const refreshHosted = vi.fn(async () => undefined);
    const shared = lockingOrigin();
    const sentAt = Date.now();
    await createRefreshCoordinator({ realm: 'platform', refresh: refreshPlatform, tabs: shared }).refreshFor(sentAt);
    await createRefreshCoordinator({ realm: 'hosted:pk_1', refresh: refreshHosted, tabs: shared }).refreshFor(sentAt);
    expect([refreshPlatform.mock.calls.length, refreshHosted.mock.calls.length]).toEqual([1, 1]);
  });
});
