import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AuthProvider, Protect, SignedIn, SignedOut, SignInButton, useAuth, UserButton } from '../src/index.js';
import { StubClient } from './stub-client.js';

const ISSUER = 'https://auth.example.com/projects/pk_shop';
const ADA = {
  sub: 'user-1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  organizations: [
    { id: 'org-1', slug: 'acme', name: 'Acme', role: 'admin' },
    { id: 'org-2', slug: 'globex', name: 'Globex', role: 'member' },
  ],
};
const IN_ACME = { org_id: 'org-1', org_slug: 'acme', org_role: 'admin', org_permissions: ['invoices:read', 'invoices:write'] };

function Status() {
  const { isLoaded, isSignedIn, user, signOutReason } = useAuth();
  return <p data-testid="status">{!isLoaded ? 'loading' : isSignedIn ? `in as ${user!.email}` : `out${signOutReason ? ` (${signOutReason})` : ''}`}</p>;
}

function app(client: StubClient, extra: React.ReactNode = null) {
  return render(
    <AuthProvider issuer={ISSUER} clientId="pk_shop" client={client}>
      <Status />
      <SignedIn>
        <p>members area</p>
        <UserButton />
      </SignedIn>
      <SignedOut>
        <p>welcome, stranger</p>
        <SignInButton returnTo="/dashboard" />
        <SignInButton mode="sign-up" />
      </SignedOut>
      {extra}
    </AuthProvider>,
  );
}

describe('state', () => {
  it('shows neither SignedIn nor SignedOut while loading, then the one that holds', async () => {
    const client = new StubClient();
    app(client);
    expect(screen.getByTestId('status').textContent).toBe('loading');
    expect(screen.queryByText('members area')).toBeNull();
    expect(screen.queryByText('welcome, stranger')).toBeNull();

    act(() => client.set({ status: 'signedOut' }));
    expect(screen.getByText('welcome, stranger')).toBeTruthy();
    expect(screen.queryByText('members area')).toBeNull();

    act(() => client.signInAs(ADA));
    expect(screen.getByTestId('status').textContent).toBe('in as ada@example.com');
    expect(screen.getByText('members area')).toBeTruthy();
    expect(screen.queryByText('welcome, stranger')).toBeNull();

    // Another tab signed out, or the server revoked the session: the reason is there to show.
    act(() => client.set({ status: 'signedOut', user: null, signOutReason: 'revoked' }));
    expect(screen.getByTestId('status').textContent).toBe('out (revoked)');
  });

  it('makes its own client when none is given: with no session in this browser, signed out', async () => {
    render(
      <AuthProvider issuer={ISSUER} clientId="pk_shop">
        <Status />
        <SignedOut>nobody here</SignedOut>
      </AuthProvider>,
    );
    expect(await screen.findByText('nobody here')).toBeTruthy();
    expect(screen.getByTestId('status').textContent).toBe('out');
  });

  it('gives getAccessToken through useAuth', async () => {
    const client = new StubClient();
    let token: string | null = null;
    function CallsApi() {
      const { getAccessToken } = useAuth();
      return <button onClick={async () => (token = await getAccessToken())}>call</button>;
    }
    app(client, <CallsApi />);
    act(() => client.signInAs(ADA));
    await userEvent.click(screen.getByRole('button', { name: 'call' }));
    await waitFor(() => expect(token).toBe('access-token'));
  });
});

describe('<SignInButton>', () => {
  it('starts the hosted sign-in, or the sign-up with prompt=create', async () => {
    const client = new StubClient();
    app(client);
    act(() => client.set({ status: 'signedOut' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(client.calls.signIn).toEqual([expect.objectContaining({ returnTo: '/dashboard' }), expect.objectContaining({ prompt: 'create' })]);
    expect(client.calls.signIn[0]!.prompt).toBeUndefined();
  });
});

describe('<Protect>', () => {
  function guarded(client: StubClient) {
    return app(
      client,
      <>
        <Protect permission="invoices:write" fallback={<p>no write</p>}>
          <p>write invoices</p>
        </Protect>
        <Protect permission="billing:manage" fallback={<p>no billing</p>}>
          <p>manage billing</p>
        </Protect>
        <Protect role="admin">
          <p>admin tools</p>
        </Protect>
      </>,
    );
  }

  it("shows its children by the permission and role of the session's organization, the fallback otherwise", () => {
    const client = new StubClient();
    guarded(client);
    act(() => client.signInAs(ADA, IN_ACME));
    expect(screen.getByText('write invoices')).toBeTruthy();
    expect(screen.getByText('no billing')).toBeTruthy();
    expect(screen.queryByText('manage billing')).toBeNull();
    expect(screen.getByText('admin tools')).toBeTruthy();

    act(() => client.signInAs(ADA, { org_id: 'org-2', org_slug: 'globex', org_role: 'member', org_permissions: ['invoices:read'] }));
    expect(screen.getByText('no write')).toBeTruthy();
    expect(screen.queryByText('admin tools')).toBeNull();
  });

  it('shows nothing at all when signed out, or signed in outside any organization (fallback only)', () => {
    const client = new StubClient();
    guarded(client);
    act(() => client.set({ status: 'signedOut' }));
    expect(screen.queryByText('no write')).toBeNull();
    act(() => client.signInAs(ADA));
    expect(screen.getByText('no write')).toBeTruthy();
    expect(screen.queryByText('admin tools')).toBeNull();
  });
});

describe('<UserButton>', () => {
  it('opens a menu with the account page, the organizations to switch between, and sign out', async () => {
    const client = new StubClient();
    app(client);
    act(() => client.signInAs(ADA, IN_ACME));
    const avatar = screen.getByRole('button', { name: 'Open user menu' });
    expect(avatar.textContent).toBe('AL');
    expect(avatar.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(avatar);

    const menu = screen.getByRole('menu', { name: 'Ada Lovelace' });
    expect(menu.textContent).toContain('ada@example.com');
    expect(within(menu).getByRole('menuitem', { name: 'Manage account' }).getAttribute('href')).toBe('https://auth.example.com/hosted/pk_shop/account');
    const organizations = within(menu).getByRole('group', { name: 'Organizations' });
    expect(within(organizations).getByRole('menuitemradio', { name: 'Acme' }).getAttribute('aria-checked')).toBe('true');
    expect(within(organizations).getByRole('menuitemradio', { name: 'Globex' }).getAttribute('aria-checked')).toBe('false');
    await userEvent.click(within(organizations).getByRole('menuitemradio', { name: 'Globex' }));
    expect(client.calls.switchOrganization).toEqual(['org-2']);
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(avatar);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(avatar);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    expect(client.calls.signOut).toHaveLength(1);
    expect(await screen.findByText('welcome, stranger')).toBeTruthy();
  });

  it('lists no organizations for a user without any', async () => {
    const client = new StubClient();
    app(client);
    act(() => client.signInAs({ sub: 'user-2', email: 'bob@example.com' }));
    const avatar = screen.getByRole('button', { name: 'Open user menu' });
    expect(avatar.textContent).toBe('BE');
    await userEvent.click(avatar);
    expect(screen.queryByRole('group', { name: 'Organizations' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeTruthy();
  });

  it('is styled with CSS variables an app can override', () => {
    const client = new StubClient();
    app(client);
    act(() => client.signInAs(ADA));
    const sheet = [...document.querySelectorAll('style')].find((style) => style.textContent?.includes('.ap-avatar'));
    expect(sheet?.textContent).toContain('var(--ap-color-primary,');
    expect(sheet?.textContent).toContain('var(--ap-radius,');
  });
});
