import { describe, expect, it, vi } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/router';
import { createRefreshCoordinator, type TabSharing } from '../../client/lib/session-refresh';
import { createRefreshLink, isUnauthorized } from '../../client/lib/trpc';
import { mockLink, sampleUser, stepUpRefusal, trpcError, unauthorized } from './utils';

function setup({ refreshOk }: { refreshOk: boolean }) {
  const calls: { path: string; input: unknown }[] = [];
  let sessionValid = false;
  let refreshes = 0;
  const onRefreshFailed = vi.fn();
  const refresh = vi.fn(async () => {
    refreshes += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!refreshOk) throw unauthorized();
    sessionValid = true;
  });
  const client = createTRPCClient<AppRouter>({
    links: [
      createRefreshLink<AppRouter>({ session: createRefreshCoordinator({ realm: 'platform', refresh, onRefreshFailed, tabs: { kind: 'none' } }) }),
      mockLink(
        {
          'auth.me': () => {
            if (!sessionValid) throw unauthorized();
            return sampleUser;
          },
          'profile.update': () => {
            if (!sessionValid) throw unauthorized();
            return sampleUser;
          },
          'auth.changePassword': () => {
            throw trpcError('UNAUTHORIZED', 'Current password is incorrect', 401);
          },
          'auth.logIn': () => {
            throw trpcError('UNAUTHORIZED', 'Incorrect email or password', 401);
          },
          'passkeys.registrationOptions': () => {
            throw stepUpRefusal();
          },
        },
        calls,
      ),
    ],
  });
  return { client, calls, refresh, onRefreshFailed, refreshes: () => refreshes };
}

describe('refresh link', () => {
  it('leaves a step-up refusal to the caller: the session is fine, so nothing is refreshed or retried', async () => {
    const { client, calls, refresh, onRefreshFailed } = setup({ refreshOk: true });
    const error = await client.passkeys.registrationOptions.mutate().catch((e: unknown) => e);
    expect((error as { data?: { step_up_required?: boolean } }).data?.step_up_required).toBe(true);
    expect(isUnauthorized(error)).toBe(false);
    expect(refresh).not.toHaveBeenCalled();
    expect(onRefreshFailed).not.toHaveBeenCalled();
    expect(calls.map((c) => c.path)).toEqual(['passkeys.registrationOptions']);
  });

  it('refreshes once on UNAUTHORIZED and retries the call', async () => {
    const { client, calls, refresh, onRefreshFailed } = setup({ refreshOk: true });
    await expect(client.auth.me.query()).resolves.toEqual(sampleUser);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.path)).toEqual(['auth.me', 'auth.me']);
    expect(onRefreshFailed).not.toHaveBeenCalled();
  });

  it('shares one in-flight refresh between concurrent calls', async () => {
    const { client, refresh } = setup({ refreshOk: true });
    const results = await Promise.all([
      client.auth.me.query(),
      client.profile.update.mutate({ first_name: 'A', last_name: 'B' }),
      client.auth.me.query(),
    ]);
    expect(results).toHaveLength(3);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('retries only once: a second UNAUTHORIZED reaches the caller without another refresh', async () => {
    const { client, refresh, calls, onRefreshFailed } = setup({ refreshOk: true });
    const error = await client.auth.changePassword
      .mutate({ current_password: 'x', new_password: 'Secret123' })
      .catch((e: unknown) => e);
    expect(isUnauthorized(error)).toBe(true);
    expect((error as Error).message).toBe('Current password is incorrect');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls.filter((c) => c.path === 'auth.changePassword')).toHaveLength(2);
    expect(onRefreshFailed).not.toHaveBeenCalled();
  });

  it('when the refresh fails, reports it once and hands the original error to every caller', async () => {
    const { client, refresh, onRefreshFailed } = setup({ refreshOk: false });
    const errors = await Promise.all([
      client.auth.me.query().catch((e: unknown) => e),
      client.auth.me.query().catch((e: unknown) => e),
    ]);
    expect(errors.every(isUnauthorized)).toBe(true);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onRefreshFailed).toHaveBeenCalledTimes(1);
  });

  it('never refreshes for the login call itself', async () => {
    const { client, refresh } = setup({ refreshOk: true });
    await expect(
      client.auth.logIn.mutate({ email: 'a@b.co', password: 'x', captcha_token: '', device_fingerprint: null }),
    ).rejects.toThrow('Incorrect email or password');
    expect(refresh).not.toHaveBeenCalled();
  });
});

describe('refresh across tabs', () => {
  /** Two tabs of one origin: one lock manager (requests run one at a time, in order) and one localStorage. */
  function origin(): Extract<TabSharing, { kind: 'locks' }> & { now: () => number } {
    let queue: Promise<unknown> = Promise.resolve();
    const store = new Map<string, string>();
    let clock = 1000;
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
      now: () => (clock += 1),
    };
  }
  const tab = (shared: ReturnType<typeof origin>, refresh: () => Promise<unknown>, onRefreshFailed = vi.fn()) =>
    createRefreshCoordinator({ realm: 'platform', refresh, onRefreshFailed, tabs: shared, now: shared.now });

  it('refreshes once when two tabs find their session expired at the same moment', async () => {
    const shared = origin();
    const refresh = vi.fn(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    const sentAt = shared.now();
    const tabA = tab(shared, refresh);
    const tabB = tab(shared, refresh);
    await expect(Promise.all([tabA.refreshFor(sentAt), tabB.refreshFor(sentAt)])).resolves.toEqual([true, true]);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes again for a call sent after the last refresh', async () => {
    const shared = origin();
    const refresh = vi.fn(async () => undefined);
    const one = tab(shared, refresh);
    await one.refreshFor(shared.now());
    await one.refreshFor(shared.now());
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('a failed refresh is reported to the tab that ran it, and the next tab tries itself', async () => {
    const shared = origin();
    const refresh = vi.fn().mockRejectedValueOnce(unauthorized()).mockResolvedValueOnce(undefined);
    const [failedA, failedB] = [vi.fn(), vi.fn()];
    const sentAt = shared.now();
    const [a, b] = await Promise.all([tab(shared, refresh, failedA).refreshFor(sentAt), tab(shared, refresh, failedB).refreshFor(sentAt)]);
    expect([a, b]).toEqual([false, true]);
    expect(failedA).toHaveBeenCalledTimes(1);
    expect(failedB).not.toHaveBeenCalled();
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('falls back to a refresh per tab without Web Locks or BroadcastChannel', async () => {
    const refresh = vi.fn(async () => undefined);
    const alone: TabSharing = { kind: 'none' };
    await Promise.all([
      createRefreshCoordinator({ realm: 'platform', refresh, tabs: alone }).refreshFor(0),
      createRefreshCoordinator({ realm: 'platform', refresh, tabs: alone }).refreshFor(0),
    ]);
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
