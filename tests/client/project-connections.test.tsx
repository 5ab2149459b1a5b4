import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Connection } from '../../shared/schemas/social';
import { SOCIAL_MESSAGES } from '../../shared/schemas/social';
import { callsTo, renderApp, sampleProject, sampleUser, trpcError } from './utils';

/** Project detail → Settings → Connections: the project's GitHub, Google, Microsoft and OpenID Connect sign-ins. */

const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', project_key: 'pk_acme' });

const github: Connection = {
  provider: 'github',
  name: 'GitHub',
  display_name: null,
  client_id: 'Iv1.abc',
  issuer: null,
  authorize_url: null,
  token_url: null,
  api_url: null,
  enabled: true,
  callback_url: 'https://auth.example/hosted/pk_acme/api/v1/auth/oauth/github/callback',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

function renderConnections(saveConnection: (input: unknown) => unknown = (input) => ({ ...github, ...(input as object) })) {
  let connections: Connection[] = [github];
  const rendered = renderApp('/projects/p_1/settings/sign-in', {
    user: sampleUser,
    handlers: {
      'projects.get': () => project,
      'social.connections': () => ({ connections }),
      'social.saveConnection': (input) => {
        const saved = saveConnection(input) as Connection;
        connections = [...connections.filter((c) => c.provider !== saved.provider), saved];
        return saved;
      },
      'social.removeConnection': (input) => {
        connections = connections.filter((c) => c.provider !== (input as { provider: string }).provider);
        return { message: SOCIAL_MESSAGES.connectionRemoved };
      },
    },
  });
  return rendered;
}

/** How long to wait for an answer: the suite runs in parallel workers, so a busy machine can be slow. */

/** The card, once the lazily loaded project screen has it (slow when the whole suite runs in parallel). */
const connectionsCard = async () => within(await screen.findByRole('list', { name: 'Providers' }));

describe('Project connections', () => {
  it('lists the four providers, configured or not', async () => {
    renderConnections();
    const list = await connectionsCard();
    expect(within(list.getByRole('listitem', { name: 'GitHub' })).getByText('Enabled')).toBeTruthy();
    for (const name of ['Google', 'Microsoft', 'OpenID Connect']) expect(within(list.getByRole('listitem', { name })).getByText('Not configured')).toBeTruthy();
  });

  it('edits a stored connection: the secret is never prefilled and an empty one keeps the stored secret', async () => {
    const { user, calls } = renderConnections();
    await user.click((await connectionsCard()).getByRole('button', { name: 'Edit GitHub' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit GitHub' }));
    expect(dialog.getByText(github.callback_url)).toBeTruthy();
    expect((dialog.getByRole('textbox', { name: /^Client ID/ }) as HTMLInputElement).value).toBe('Iv1.abc');
    const secret = dialog.getByLabelText(/^Client secret/) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe('Leave empty to keep the stored secret');

    await user.click(dialog.getByRole('button', { name: /Advanced \(GitHub Enterprise\)/ }));
    // The section's opening transition never finishes in jsdom: its fields count as hidden to role queries.
    await user.type(dialog.getByLabelText('Authorize URL'), 'https://github.acme.example/login/oauth/authorize');
    await user.click(dialog.getByRole('button', { name: 'Save connection' }));
    expect(await screen.findByText('GitHub connection saved')).toBeTruthy();
    expect(callsTo(calls, 'social.saveConnection')[0]?.input).toEqual({
      id: 'p_1',
      provider: 'github',
      client_id: 'Iv1.abc',
      client_secret: null,
      display_name: null,
      issuer: null,
      authorize_url: 'https://github.acme.example/login/oauth/authorize',
      token_url: null,
      api_url: null,
      enabled: true,
    });
  });

  it('sets up a new OpenID Connect provider: the callback URL before saving, required secret and issuer, and the server field errors', async () => {
    let refuse = true;
    const { user, calls } = renderConnections((input) => {
      if (refuse) throw trpcError('UNPROCESSABLE_CONTENT', 'issuer must be an http or https URL', 422);
      return { ...github, ...(input as object), provider: 'oidc', name: 'Acme SSO', callback_url: 'https://auth.example/cb' };
    });
    await user.click((await connectionsCard()).getByRole('button', { name: 'Set up OpenID Connect' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Set up OpenID Connect' }));
    expect(dialog.getByText(`${window.location.origin}/hosted/pk_acme/api/v1/auth/oauth/oidc/callback`)).toBeTruthy();

    await user.type(dialog.getByRole('textbox', { name: /^Client ID/ }), 'client-1');
    await user.click(dialog.getByRole('button', { name: 'Save connection' }));
    expect(await dialog.findByText('client_secret is required')).toBeTruthy();
    expect(dialog.getByText('issuer is required for an OpenID Connect provider')).toBeTruthy();
    expect(callsTo(calls, 'social.saveConnection')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: /^Display name/ }), 'Acme SSO');
    await user.type(dialog.getByLabelText(/^Client secret/), 's3cret');
    await user.type(dialog.getByRole('textbox', { name: /^Issuer/ }), 'https://login.acme.example');
    await user.click(dialog.getByRole('button', { name: 'Save connection' }));
    expect(await dialog.findByText('Issuer must be an http or https URL')).toBeTruthy();

    refuse = false;
    await user.click(dialog.getByRole('button', { name: 'Save connection' }));
    expect(await screen.findByText('OpenID Connect connection saved')).toBeTruthy();
    expect(callsTo(calls, 'social.saveConnection')[1]?.input).toMatchObject({
      provider: 'oidc',
      client_id: 'client-1',
      client_secret: 's3cret',
      display_name: 'Acme SSO',
      issuer: 'https://login.acme.example',
    });
  });

  it('removes a connection after confirming', async () => {
    const { user, calls } = renderConnections();
    await user.click((await connectionsCard()).getByRole('button', { name: 'Remove GitHub' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove connection' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(SOCIAL_MESSAGES.connectionRemoved)).toBeTruthy();
    expect(callsTo(calls, 'social.removeConnection')[0]?.input).toEqual({ id: 'p_1', provider: 'github' });
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'GitHub' })).getByText('Not configured')).toBeTruthy());
  });
});
