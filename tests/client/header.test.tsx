import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '../../shared/schemas/user';
import { renderApp, sampleUser } from './utils';

/** The header while the session check is pending: a placeholder with a name, never an empty corner. */

function pendingSession() {
  let answer!: (value: { user: User | null }) => void;
  const session = new Promise<{ user: User | null }>((resolve) => (answer = resolve));
  return { handler: () => session, answer };
}

const banner = () => within(screen.getByRole('banner'));

describe('the header while the session check is pending', () => {
  it('shows a labelled placeholder, then Login and Sign Up once nobody is signed in', async () => {
    const check = pendingSession();
    renderApp('/', { handlers: { 'auth.session': check.handler } });
    const placeholder = await banner().findByRole('status', { name: 'Checking your session…' });
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    expect(banner().queryByRole('link', { name: 'Login' })).toBeNull();
    expect(banner().queryByRole('button', { name: /^Account menu/ })).toBeNull();

    check.answer({ user: null });
    expect(await banner().findByRole('link', { name: 'Login' })).toBeTruthy();
    expect(banner().getByRole('link', { name: 'Sign Up' })).toBeTruthy();
    expect(banner().queryByRole('status', { name: 'Checking your session…' })).toBeNull();
  });

  it('gives way to the account menu once the user is known', async () => {
    const check = pendingSession();
    renderApp('/', { handlers: { 'auth.session': check.handler } });
    expect(await banner().findByRole('status', { name: 'Checking your session…' })).toBeTruthy();

    check.answer({ user: sampleUser });
    expect(await banner().findByRole('button', { name: 'Account menu for Ada' })).toBeTruthy();
    await waitFor(() => expect(banner().queryByRole('status', { name: 'Checking your session…' })).toBeNull());
    expect(banner().queryByRole('link', { name: 'Login' })).toBeNull();
  });
});
