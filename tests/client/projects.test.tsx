import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Analytics, ApiKey, Project } from '../../shared/schemas/projects';
import { callsTo, currentPath, renderApp, sampleEndUserSettings, sampleProject, sampleUser, trpcError, watchTimers } from './utils';
import { COPIED_HINT_MS } from '../../shared/constants';

// Lazy screens, a modal and many keystrokes: slower than the default budgets on a busy machine.
function project(overrides: Partial<Project> = {}): Project {
  return sampleProject({
    id: 'p_1',
    name: 'Acme Storefront',
    description: 'Customer sign-in for the store.',
    website_url: 'https://acme.example',
    environment: 'production',
    project_key: 'pk_0123456789abcdef',
    total_users: 1284,
    total_logins: 9432,
    total_signups: 312,
    created_at: '2025-01-15T10:30:00.000Z',
    updated_at: '2025-01-16T10:30:00.000Z',
    ...overrides,
  });
}

function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'k_1',
    project_id: 'p_1',
    name: 'Backend',
    prefix: 'sk_live_abcd',
    created_at: '2025-02-01T10:00:00.000Z',
    last_used_at: null,
    revoked_at: null,
    requests_today: 0,
    ...overrides,
  };
}

function analytics(projectId: string, days = 30, fill: (index: number) => Partial<Analytics['days'][number]> = () => ({})): Analytics {
  const start = Date.UTC(2025, 5, 1);
  const dayOf = (index: number) => new Date(start + index * 86_400_000).toISOString().slice(0, 10);
  return {
    project_id: projectId,
    from: dayOf(0),
    to: dayOf(days - 1),
    days: Array.from({ length: days }, (_, index) => ({
      day: dayOf(index),
      signups: 0,
      logins: 0,
      failed_logins: 0,
      active_users: 0,
      api_requests: 0,
      ...fill(index),
    })),
    monthly_active_users: 0,
    sign_ins_by_method: [],
    sign_ins_by_country: [],
    failures_by_reason: [],
  };
}

describe('ProjectsPage', () => {
  it('shows the projects from projects.list with their counts, key and real links', async () => {
    renderApp('/projects', {
      user: sampleUser,
      handlers: { 'projects.list': () => ({ projects: [project(), project({ id: 'p_2', name: 'Internal Tools', environment: 'development', is_active: false, description: null })] }) },
    });
    const card = await screen.findByRole('article', { name: 'Acme Storefront' });
    expect(within(card).getByText('production')).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'Active' })).toBeTruthy();
    expect(within(card).getByText('Customer sign-in for the store.')).toBeTruthy();
    expect(within(card).getByRole('group', { name: 'Users: 1,284' })).toBeTruthy();
    expect(within(card).getByRole('group', { name: 'Logins: 9,432' })).toBeTruthy();
    expect(within(card).getByRole('group', { name: 'Signups: 312' })).toBeTruthy();
    expect(within(card).getByText('pk_0123456789abcdef')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'View' }).getAttribute('href')).toBe('/projects/p_1');
    expect(within(card).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/projects/p_1/settings/general');
    expect(within(card).getByRole('link', { name: 'API Keys' }).getAttribute('href')).toBe('/api-keys?project=p_1');

    const other = screen.getByRole('article', { name: 'Internal Tools' });
    expect(within(other).getByRole('img', { name: 'Inactive' })).toBeTruthy();
    expect(within(other).getByText('No description')).toBeTruthy();
  });

  it('create modal: name required after trimming, a valid URL, development by default; then projects.create', async () => {
    let list: Project[] = [];
    const { user, calls } = renderApp('/projects', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: list }),
        'projects.create': (input) => {
          const created = project({ id: 'p_new', name: 'Rocket', environment: 'development', total_users: 0, total_logins: 0, total_signups: 0, description: null });
          list = [created];
          return { ...created, input };
        },
        'projects.dashboardStats': () => ({}),
        'projects.get': () => list[0],
        'projects.analytics': () => analytics('p_new'),
      },
    });
    expect(await screen.findByText('No projects yet')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Create project' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create project' });
    expect((within(dialog).getByRole('textbox', { name: /^Environment/ }) as HTMLInputElement).value).toBe('Development');

    await user.type(within(dialog).getByLabelText(/^Project name/), '   ');
    await user.type(within(dialog).getByLabelText(/^Website URL/), 'not a url');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    expect(await within(dialog).findByText('Project name is required')).toBeTruthy();
    expect(within(dialog).getByText('Please enter a valid URL')).toBeTruthy();
    expect(callsTo(calls, 'projects.create')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Project name/), ' Rocket ');
    await user.clear(within(dialog).getByLabelText(/^Website URL/));
    await user.type(within(dialog).getByLabelText(/^Website URL/), 'https://rocket.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('Project created successfully!')).toBeTruthy();
    expect(callsTo(calls, 'projects.create')[0]?.input).toEqual({
      name: 'Rocket',
      description: null,
      website_url: 'https://rocket.example',
      environment: 'development',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create project' })).toBeNull());
    // The new project opens on its Overview, with the quickstart first.
    await waitFor(() => expect(currentPath()).toBe('/projects/p_new'));
    expect(await screen.findByRole('region', { name: 'Quickstart' })).toBeTruthy();
  });

  it('a refused create says "Failed to create project" with the server detail', async () => {
    const { user } = renderApp('/projects?create=1', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [] }),
        'projects.create': () => {
          throw trpcError('CONFLICT', 'A developer account can have at most 50 projects', 409);
        },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Create project' });
    await user.type(within(dialog).getByLabelText(/^Project name/), 'One too many');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('Failed to create project')).toBeTruthy();
    expect(screen.getByText('A developer account can have at most 50 projects')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create project' })).toBeTruthy();
    // Every dialog's close button has a name (the theme's default), not only those that set one.
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('deletes only after the confirmation, then reloads the list', async () => {
    let list = [project()];
    const { user, calls } = renderApp('/projects', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: list }),
        'projects.delete': () => {
          list = [];
          return { message: 'Project deleted successfully' };
        },
        'projects.dashboardStats': () => ({}),
      },
    });
    const card = await screen.findByRole('article', { name: 'Acme Storefront' });
    // The app's own dialog: the spec's question, then the project's name typed before Delete works.
    await user.click(within(card).getByRole('button', { name: 'Delete Acme Storefront' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete project' }));
    expect(dialog.getByText('Are you sure you want to delete this project? This action cannot be undone.')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete project' })).toBeNull());
    expect(callsTo(calls, 'projects.delete')).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Delete Acme Storefront' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete project' }));
    const confirm = dialog.getByRole('button', { name: 'Delete project' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(dialog.getByRole('textbox', { name: 'Type Acme Storefront to confirm' }), 'Acme');
    expect(confirm.disabled).toBe(true);
    await user.type(dialog.getByRole('textbox', { name: 'Type Acme Storefront to confirm' }), ' Storefront');
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);
    expect(await screen.findByText('Project deleted successfully')).toBeTruthy();
    expect(callsTo(calls, 'projects.delete')[0]?.input).toEqual({ id: 'p_1' });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Acme Storefront' })).toBeNull());
  });

  it('a failed delete says "Failed to delete project"', async () => {
    const { user } = renderApp('/projects', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [project()] }),
        'projects.delete': () => {
          throw new Error('down');
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Acme Storefront' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete project' }));
    await user.type(dialog.getByRole('textbox', { name: 'Type Acme Storefront to confirm' }), 'Acme Storefront{Enter}');
    expect(await screen.findByText('Failed to delete project')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Acme Storefront' })).toBeTruthy();
  });

  it('a failed load says "Failed to load projects" and offers a retry', async () => {
    let fail = true;
    const { user } = renderApp('/projects', {
      user: sampleUser,
      handlers: {
        'projects.list': () => {
          if (fail) throw new Error('down');
          return { projects: [project()] };
        },
      },
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('Failed to load projects').length).toBeGreaterThan(0);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Acme Storefront' })).toBeTruthy();
  });

  it('tells an unverified developer that creating projects needs a verified e-mail', async () => {
    const { user, calls } = renderApp('/projects', {
      user: { ...sampleUser, is_verified: false },
      handlers: { 'projects.list': () => ({ projects: [] }), 'auth.resendVerification': () => ({ message: 'sent' }) },
    });
    expect(await screen.findByText('Verify your e-mail to create projects')).toBeTruthy();
    expect(screen.getByText(/Creating projects needs a verified e-mail address\./)).toBeTruthy();
    const create = screen.getByRole('button', { name: 'Create project' });
    expect(create.getAttribute('aria-disabled')).toBe('true');
    await user.click(create);
    expect(screen.queryByRole('dialog', { name: 'Create project' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Verification email sent! Please check your inbox.')).toBeTruthy();
    expect(callsTo(calls, 'auth.resendVerification')[0]?.input).toEqual({ email: sampleUser.email, captcha_token: '' });
  });
});

describe('ApiKeysPage', () => {
  it('picks the first project, lists its keys and shows a new secret exactly once', async () => {
    const timers = watchTimers();
    let keys = [apiKey({ last_used_at: null, requests_today: 0 }), apiKey({ id: 'k_0', name: 'Old', prefix: 'sk_live_zzzz', revoked_at: '2025-03-01T00:00:00.000Z' })];
    const secret = 'sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
    const { user, calls } = renderApp('/api-keys', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [project(), project({ id: 'p_2', name: 'Second' })] }),
        'projects.apiKeys': () => ({ api_keys: keys }),
        'projects.createApiKey': (input) => {
          const created = apiKey({ id: 'k_2', name: (input as { name: string }).name, prefix: secret.slice(0, 12) });
          keys = [created, ...keys];
          return { ...created, secret };
        },
        'projects.dashboardStats': () => ({}),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'API keys' })).toBeTruthy();
    await waitFor(() => expect(currentPath()).toBe('/api-keys?project=p_1'));
    const list = await screen.findByRole('list', { name: 'API keys' });
    const backend = within(list).getByRole('listitem', { name: 'Backend' });
    expect(within(backend).getByText('sk_live_abcd…')).toBeTruthy();
    expect(within(backend).getByText('Never')).toBeTruthy();
    expect(within(backend).getByText('Active')).toBeTruthy();
    expect(within(list).getByRole('listitem', { name: 'Old' }).textContent).toContain('Revoked');
    expect(callsTo(calls, 'projects.apiKeys')[0]?.input).toEqual({ id: 'p_1' });

    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Key name is required')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Key name' }), 'CI runner');
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByText(secret)).toBeTruthy();
    expect(within(dialog).getByText('Copy this key now and store it somewhere safe. It will not be shown again.')).toBeTruthy();
    expect(callsTo(calls, 'projects.createApiKey')[0]?.input).toEqual({ id: 'p_1', name: 'CI runner' });
    await user.click(within(dialog).getByRole('button', { name: 'Copy API key' }));
    expect(await within(dialog).findByText('Copied!')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(secret);
    timers.fire(COPIED_HINT_MS);
    expect(within(dialog).queryByText('Copied!')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'I have copied the key' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your new API key' })).toBeNull());
    // Gone from the page: only its prefix is listed.
    expect(screen.queryByText(secret)).toBeNull();
    expect(await screen.findByRole('listitem', { name: 'CI runner' })).toBeTruthy();
  });

  it('revokes a key after confirming', async () => {
    let keys = [apiKey()];
    const { user, calls } = renderApp('/api-keys?project=p_1', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [project()] }),
        'projects.apiKeys': () => ({ api_keys: keys }),
        'projects.revokeApiKey': () => {
          keys = [apiKey({ revoked_at: '2025-06-01T00:00:00.000Z' })];
          return keys[0];
        },
        'projects.dashboardStats': () => ({}),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke Backend' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Revoke API key' }));
    expect(dialog.getByText(/Apps that use it stop working immediately/)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke API key' })).toBeNull());
    expect(callsTo(calls, 'projects.revokeApiKey')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Revoke Backend' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Revoke API key' }));
    const revoke = dialog.getByRole('button', { name: 'Revoke key' }) as HTMLButtonElement;
    expect(revoke.disabled).toBe(true);
    await user.type(dialog.getByRole('textbox', { name: 'Type Backend to confirm' }), 'Backend');
    await user.click(revoke);
    expect(await screen.findByText('API key revoked')).toBeTruthy();
    expect(callsTo(calls, 'projects.revokeApiKey')[0]?.input).toEqual({ id: 'p_1', key_id: 'k_1' });
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Backend' }).textContent).toContain('Revoked'));
    expect(screen.queryByRole('button', { name: 'Revoke Backend' })).toBeNull();
  });

  it('keeps the chosen project in ?project=', async () => {
    const { user, calls } = renderApp('/api-keys?project=p_2', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [project(), project({ id: 'p_2', name: 'Second', environment: 'staging' })] }),
        'projects.apiKeys': () => ({ api_keys: [] }),
      },
    });
    expect(await screen.findByText('No API keys yet')).toBeTruthy();
    expect(callsTo(calls, 'projects.apiKeys')[0]?.input).toEqual({ id: 'p_2' });
    await user.click(screen.getByRole('textbox', { name: 'Project' }));
    // The dropdown's transition never finishes in jsdom, so its options count as hidden.
    await user.click(await screen.findByRole('option', { name: /Acme Storefront/, hidden: true }));
    await waitFor(() => expect(currentPath()).toBe('/api-keys?project=p_1'));
  });
});

describe('ProjectDetailPage', () => {
  it('shows the key facts, the project key, the JWKS URL and links to keys, monitoring and analytics', async () => {
    renderApp('/projects/p_1', {
      user: sampleUser,
      handlers: {
        'projects.get': () => project(),
        'projects.analytics': () => ({ ...analytics('p_1', 30, (i) => (i === 29 ? { signups: 3, logins: 5, failed_logins: 1, api_requests: 9, active_users: 2 } : {})), monthly_active_users: 2 }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Storefront' })).toBeTruthy();
    expect(screen.getByText('pk_0123456789abcdef')).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/public/api/v1/projects/pk_0123456789abcdef/jwks.json`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Monitor users' }).getAttribute('href')).toBe('/monitoring?project=p_1');
    expect(screen.getByRole('link', { name: 'Audit log' }).getAttribute('href')).toBe('/monitoring?project=p_1&tab=audit');
    expect(screen.getByRole('link', { name: 'API keys' }).getAttribute('href')).toBe('/api-keys?project=p_1');
    expect(screen.getByRole('link', { name: 'Open analytics' }).getAttribute('href')).toBe('/analytics?project=p_1');
    const actions = screen.getAllByRole('link', { name: 'Analytics' }).map((link) => link.getAttribute('href'));
    expect(actions).toContain('/analytics?project=p_1');
    const mau = await screen.findByRole('region', { name: 'Monthly active users' });
    expect(within(mau).getByText('2')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'API requests' })).getByText('9')).toBeTruthy();
  });

  /** A settings section of a project whose updates the server keeps. */
  function renderProjectSettings(section = 'general') {
    let saved = project();
    const rendered = renderApp(`/projects/p_1/settings/${section}`, {
      user: sampleUser,
      handlers: {
        'projects.get': () => saved,
        'projects.update': (input) => {
          const { id: _id, ...changes } = input as Partial<Project>;
          saved = { ...saved, ...changes };
          return saved;
        },
        'projects.list': () => ({ projects: [saved] }),
        'projects.dashboardStats': () => ({}),
        'projectSettings.get': () => sampleEndUserSettings,
        'social.connections': () => ({ connections: [] }),
      },
    });
    return { ...rendered, current: () => saved };
  }

  it('settings: edits the details and deactivates the project', async () => {
    const { user, calls } = renderProjectSettings();
    const name = await screen.findByRole('textbox', { name: /^Project name/ });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Project name is required')).toBeTruthy();
    await user.type(name, 'Acme Shop');
    const website = screen.getByRole('textbox', { name: /^Website URL/ });
    await user.clear(website);
    await user.type(website, 'ftp://nope');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Please enter a valid URL')).toBeTruthy();
    await user.clear(website);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Project updated successfully')).toBeTruthy();
    expect(callsTo(calls, 'projects.update')[0]?.input).toEqual({
      id: 'p_1',
      name: 'Acme Shop',
      description: 'Customer sign-in for the store.',
      website_url: null,
      environment: 'production',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Shop' })).toBeTruthy();

    await user.click(within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', { name: 'Danger zone' }));
    await waitFor(() => expect(currentPath()).toBe('/projects/p_1/settings/danger'));
    await user.click(await screen.findByRole('button', { name: 'Deactivate project' }));
    expect(await screen.findByText('Project deactivated')).toBeTruthy();
    expect(callsTo(calls, 'projects.update')[1]?.input).toEqual({ id: 'p_1', is_active: false });
    expect(await screen.findByRole('button', { name: 'Activate project' })).toBeTruthy();
  });

  it('settings: shows the OpenID Connect issuer and client id, and saves redirect URIs and origins', async () => {
    const { user, calls, current } = renderProjectSettings('sign-in');
    const section = within(await screen.findByRole('region', { name: 'Sign-in with OpenID Connect' }));
    expect(section.getByText(current().issuer)).toBeTruthy();

    const redirects = section.getByRole('textbox', { name: /^Redirect URIs/ });
    await user.type(redirects, 'javascript:alert(1)');
    await user.click(section.getByRole('button', { name: 'Save sign-in settings' }));
    expect(await section.findByText(/Each redirect URI must be an absolute URL/)).toBeTruthy();
    await user.clear(redirects);
    await user.type(redirects, 'https://shop.example/callback{Enter}com.example.app:/callback');
    await user.type(section.getByRole('textbox', { name: /^Allowed origins/ }), 'https://shop.example');
    await user.click(section.getByRole('button', { name: 'Save sign-in settings' }));
    expect(await screen.findByText('Project updated successfully')).toBeTruthy();
    expect(callsTo(calls, 'projects.update')[0]?.input).toEqual({
      id: 'p_1',
      redirect_uris: ['https://shop.example/callback', 'com.example.app:/callback'],
      post_logout_redirect_uris: [],
      allowed_origins: ['https://shop.example'],
    });
  });

  it('settings: branding shows the hosted sign-in page and previews the colour before it is saved', async () => {
    const { user, calls, current } = renderProjectSettings('branding');
    const section = within(await screen.findByRole('region', { name: 'Hosted pages' }));
    expect(section.getByText(`${current().hosted_pages_url}/sign-in`)).toBeTruthy();
    const preview = section.getByRole('img', { name: "Preview of Acme Storefront's hosted sign-in page" });
    await user.type(section.getByRole('textbox', { name: /^Accent colour/ }), '#1C7ED6');
    // The preview follows the form, not the saved project.
    await waitFor(() => expect(within(preview).getByText('Sign in').getAttribute('style')).toMatch(/background: (#1C7ED6|rgb\(28, 126, 214\))/i));
    await user.click(section.getByRole('button', { name: 'Save branding' }));
    expect(await screen.findByText('Project updated successfully')).toBeTruthy();
    expect(callsTo(calls, 'projects.update')[0]?.input).toEqual({ id: 'p_1', logo_url: null, accent_color: '#1c7ed6' });
  });

  it('an unknown project says so', async () => {
    renderApp('/projects/nope', {
      user: sampleUser,
      handlers: {
        'projects.get': () => {
          throw trpcError('NOT_FOUND', 'Project not found', 404);
        },
      },
    });
    expect(await screen.findByText('Project not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to projects' })).toBeTruthy();
  });
});

describe('AnalyticsPage', () => {
  it('shows the monthly active users and the 30-day totals of the chosen project', async () => {
    const { calls } = renderApp('/analytics?project=p_1', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [project()] }),
        'projects.analytics': () => ({
          ...analytics('p_1', 30, (i) => ({ signups: i % 2, logins: 2, failed_logins: i === 3 ? 4 : 0, active_users: 1, api_requests: 10 })),
          monthly_active_users: 17,
        }),
      },
    });
    const mau = await screen.findByRole('region', { name: 'Monthly active users' });
    expect(within(mau).getByText('17')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Signups' })).getByText('15')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Logins' })).getByText('60')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Failed logins' })).getByText('4')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'API requests' })).getByText('300')).toBeTruthy();
    for (const chart of ['Signups and logins', 'Daily active users', 'Failed logins', 'API requests']) {
      expect(screen.getByRole('region', { name: `${chart} per day` })).toBeTruthy();
    }
    expect(callsTo(calls, 'projects.analytics')[0]?.input).toEqual({ id: 'p_1', days: 30 });
  });

  it('has an empty state when nothing happened', async () => {
    renderApp('/analytics', {
      user: sampleUser,
      handlers: { 'projects.list': () => ({ projects: [project()] }), 'projects.analytics': () => analytics('p_1') },
    });
    expect(await screen.findByText('No activity in this period')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get an API key' }).getAttribute('href')).toBe('/api-keys?project=p_1');
  });

  it('says "Failed to load analytics" when the call fails', async () => {
    renderApp('/analytics', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [project()] }),
        'projects.analytics': () => {
          throw new Error('down');
        },
      },
    });
    expect((await screen.findAllByText('Failed to load analytics')).length).toBeGreaterThan(0);
  });
});
