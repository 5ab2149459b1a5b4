import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { OwnSession } from '../../shared/schemas/sessions';
import { formatDateTime } from '../../client/lib/format';
import { callsTo, renderApp, sampleUser, trpcError } from './utils';

const CURRENT: OwnSession = {
  id: 's_1',
  device: 'Chrome on macOS',
  ip_address: '79.192.20.30',
  country_code: 'DE',
  user_agent: 'Mozilla/5.0 (Macintosh) Chrome/131.0.0.0',
  created_at: '2025-06-01T09:00:00.000Z',
  last_used_at: '2025-06-01T10:00:00.000Z',
  current: true,
};
const PHONE: OwnSession = {
  ...CURRENT,
  id: 's_2',
  device: 'Safari on iPhone',
  ip_address: '2001:db8::1',
  country_code: null,
  user_agent: 'Mozilla/5.0 (iPhone) Version/18.1 Safari/604.1',
  last_used_at: '2025-05-30T08:15:00.000Z',
  current: false,
};
const LAPTOP: OwnSession = { ...PHONE, id: 's_3', device: 'Firefox on Windows', ip_address: '198.51.100.7', country_code: 'FR', user_agent: null };

async function openSessionsCard(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('tab', { name: 'Security' }));
  return screen.getByRole('heading', { name: 'Your sessions' }).closest('.mantine-Card-root') as HTMLElement;
}

/** A server that keeps the account's sessions and forgets the ones signed out. */
function sessionsServer(initial: OwnSession[]) {
  let sessions = [...initial];
  return {
    'auth.listSessions': () => ({ sessions }),
    'auth.revokeSession': (input: unknown) => {
      const { id } = input as { id: string };
      if (!sessions.some((s) => s.id === id && !s.current)) throw trpcError('NOT_FOUND', 'Session not found', 404);
      sessions = sessions.filter((s) => s.id !== id);
      return { message: 'Session revoked' };
    },
    'auth.revokeOtherSessions': () => {
      const revoked = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return { message: 'Other sessions signed out', revoked };
    },
  };
}

describe('Settings → Security → Your sessions', () => {
  it('lists each session with its device, place, address and last use; the current one is marked and cannot be signed out here', async () => {
    const { user } = renderApp('/settings', { user: sampleUser, handlers: sessionsServer([CURRENT, PHONE, LAPTOP]) });
    const card = await openSessionsCard(user);
    const list = await within(card).findByRole('list', { name: 'Your sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const current = within(list).getByRole('listitem', { name: 'Chrome on macOS, this device' });
    expect(within(current).getByText('This device')).toBeTruthy();
    expect(within(current).getByText('Germany (DE) · 79.192.20.30')).toBeTruthy();
    expect(within(current).getByText('Active now')).toBeTruthy();
    expect(within(current).queryByRole('button', { name: 'Sign out' })).toBeNull();

    const phone = within(list).getByRole('listitem', { name: 'Safari on iPhone' });
    expect(within(phone).queryByText('This device')).toBeNull();
    expect(within(phone).getByText('Unknown location · 2001:db8::1')).toBeTruthy();
    expect(within(phone).getByText(`Last used ${formatDateTime(PHONE.last_used_at)}`)).toBeTruthy();
    expect(within(phone).getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Sign out all other sessions' })).toBeTruthy();
  });

  it('signs one other session out and shows the list without it', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: sessionsServer([CURRENT, PHONE, LAPTOP]) });
    const card = await openSessionsCard(user);
    const phone = await within(card).findByRole('listitem', { name: 'Safari on iPhone' });
    await user.click(within(phone).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Session revoked')).toBeTruthy();
    await waitFor(() => expect(within(card).queryByRole('listitem', { name: 'Safari on iPhone' })).toBeNull());
    expect(within(card).getAllByRole('listitem')).toHaveLength(2);
    expect(callsTo(calls, 'auth.revokeSession').map((call) => call.input)).toEqual([{ id: 's_2' }]);
  });

  it('signs out all other sessions at once and says how many', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: sessionsServer([CURRENT, PHONE, LAPTOP]) });
    const card = await openSessionsCard(user);
    await user.click(await within(card).findByRole('button', { name: 'Sign out all other sessions' }));
    expect(await screen.findByText('2 other sessions signed out')).toBeTruthy();
    expect(await within(card).findByText('You are not signed in anywhere else.')).toBeTruthy();
    expect(within(card).getAllByRole('listitem')).toHaveLength(1);
    expect(within(card).queryByRole('button', { name: 'Sign out all other sessions' })).toBeNull();
    expect(callsTo(calls, 'auth.revokeOtherSessions')).toHaveLength(1);
  });

  it("shows the server's detail when a sign-out fails, and a retry when the list cannot be loaded", async () => {
    let fail = true;
    const server = sessionsServer([CURRENT, PHONE]);
    const { user } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        ...server,
        'auth.listSessions': () => {
          if (fail) throw trpcError('INTERNAL_SERVER_ERROR', 'Internal Server Error', 500);
          return server['auth.listSessions']();
        },
        'auth.revokeSession': () => {
          throw trpcError('NOT_FOUND', 'Session not found', 404);
        },
      },
    });
    const card = await openSessionsCard(user);
    expect(await within(card).findByText('Failed to load your sessions')).toBeTruthy();
    fail = false;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    const phone = await within(card).findByRole('listitem', { name: 'Safari on iPhone' });
    await user.click(within(phone).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Session not found')).toBeTruthy();
  });
});

describe('Settings → Security → Session timeout', () => {
  const timeoutField = () => screen.getByRole('textbox', { name: /^Session timeout/ }) as HTMLInputElement;

  it("shows the account's setting, offers No timeout and the spec's options, and saves a choice on the server", async () => {
    let saved: number | null = null;
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        ...sessionsServer([CURRENT]),
        'profile.update': (input) => {
          saved = (input as { session_idle_timeout_minutes: number | null }).session_idle_timeout_minutes;
          return { ...sampleUser, session_idle_timeout_minutes: saved };
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    expect(timeoutField().value).toBe('No timeout');

    await user.click(timeoutField());
    const options = (await screen.findAllByRole('option', { hidden: true })).map((option) => option.textContent);
    expect(options).toEqual(['No timeout', '15 minutes', '30 minutes', '60 minutes', '120 minutes', '480 minutes']);
    await user.click(screen.getByRole('option', { name: '120 minutes', hidden: true }));
    expect(await screen.findByText('Security settings updated')).toBeTruthy();
    await waitFor(() => expect(timeoutField().value).toBe('120 minutes'));
    expect(saved).toBe(120);

    await user.click(timeoutField());
    await user.click(await screen.findByRole('option', { name: 'No timeout', hidden: true }));
    await waitFor(() => expect(timeoutField().value).toBe('No timeout'));
    expect(callsTo(calls, 'profile.update').map((call) => call.input)).toEqual([{ session_idle_timeout_minutes: 120 }, { session_idle_timeout_minutes: null }]);
  });

  it('starts from the value on the server (one the list does not offer included) and shows a refusal', async () => {
    const { user } = renderApp('/settings', {
      user: { ...sampleUser, session_idle_timeout_minutes: 45 },
      handlers: {
        ...sessionsServer([CURRENT]),
        'profile.update': () => {
          throw trpcError('UNPROCESSABLE_CONTENT', 'Session timeout must be a whole number of minutes from 15 to 480, or null for none', 422);
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    expect(timeoutField().value).toBe('45 minutes');
    await user.click(timeoutField());
    await user.click(await screen.findByRole('option', { name: '15 minutes', hidden: true }));
    expect(await screen.findByText('Session timeout must be a whole number of minutes from 15 to 480, or null for none')).toBeTruthy();
    expect(timeoutField().value).toBe('45 minutes');
  });
});
