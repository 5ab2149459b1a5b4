import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import * as apiSdk from '../../packages/api/src/index';
import * as browserSdk from '../../packages/js/src/index';
import * as reactSdk from '../../packages/react/src/index';
import { APP_KINDS, envBlock, quickstartValues } from '../../client/components/projects/quickstart/quickstartValues';
import { quickstartSteps } from '../../client/components/projects/quickstart/quickstartSteps';
import { renderApp, sampleProject, sampleUser } from './utils';

/** The project quickstart (issue 32): the values an app needs, as the server serves them, and code per kind of app. */

const project = sampleProject({
  id: 'p_q',
  name: 'Rocket',
  project_key: 'pk_rocket',
  issuer: 'https://auth.example.com/projects/pk_rocket',
  hosted_pages_url: 'https://auth.example.com/hosted/pk_rocket',
});

const handlers = {
  'projects.get': () => project,
  'projects.analytics': () => ({ project_id: 'p_q', days: [], monthly_active_users: 0 }),
};

function envText() {
  return within(screen.getByRole('region', { name: 'Environment variables' })).getByText(/AUTHPLATFORM_URL=/).textContent ?? '';
}

beforeEach(() => localStorage.clear());

describe('quickstart values', () => {
  it("are the server's issuer, client id, JWKS, hosted sign-in and API addresses", () => {
    expect(quickstartValues(project)).toEqual({
      appUrl: 'https://auth.example.com',
      issuer: 'https://auth.example.com/projects/pk_rocket',
      clientId: 'pk_rocket',
      jwksUrl: 'https://auth.example.com/public/api/v1/projects/pk_rocket/jwks.json',
      signInUrl: 'https://auth.example.com/hosted/pk_rocket/sign-in',
      apiBaseUrl: 'https://auth.example.com/public/api/v1',
    });
  });

  it('keep an APP_URL with a path (a server behind a prefix)', () => {
    const prefixed = { ...project, issuer: 'https://example.com/auth/projects/pk_rocket', hosted_pages_url: 'https://example.com/auth/hosted/pk_rocket' };
    expect(quickstartValues(prefixed)).toMatchObject({ appUrl: 'https://example.com/auth', jwksUrl: 'https://example.com/auth/public/api/v1/projects/pk_rocket/jwks.json' });
  });

  it('never carry a secret: a backend gets a placeholder for its API key', () => {
    const values = quickstartValues(project);
    expect(envBlock('spa', values)).toContain('VITE_AUTHPLATFORM_CLIENT_ID=pk_rocket\n');
    expect(envBlock('server', values)).not.toContain('API_KEY');
    expect(envBlock('backend', values)).toContain('AUTHPLATFORM_API_KEY=sk_test_...\n');
  });

  it("use only what the SDKs export, in every kind's steps", () => {
    const packages: Record<string, object> = { '@authplatform/api': apiSdk, '@authplatform/js': browserSdk, '@authplatform/react': reactSdk };
    const imported = new Set<string>();
    for (const { value } of APP_KINDS) {
      const steps = quickstartSteps(value, quickstartValues(project));
      expect(steps, value).toHaveLength(3);
      for (const step of steps) {
        for (const [, names, from] of step.code.matchAll(/import \{([^}]+)\} from '(@authplatform\/[\w-]+)'/g)) {
          expect(packages, `${value}: ${from}`).toHaveProperty([from!]);
          imported.add(from!);
          for (const name of names!.split(',').map((part) => part.trim())) expect(packages[from!], `${value}: ${from} ${name}`).toHaveProperty(name);
        }
      }
    }
    expect([...imported].sort()).toEqual(['@authplatform/api', '@authplatform/react']);
  });
});

// A lazy project screen and several clicks: slower than the default budget on a busy machine.
describe('the quickstart on the Overview', { timeout: 30_000 }, () => {
  it('shows the .env block of the chosen kind with a copy button, and three steps', async () => {
    const { user } = renderApp('/projects/p_q', { user: sampleUser, handlers });
    const quickstart = await screen.findByRole('region', { name: 'Quickstart' });
    expect(within(quickstart).getByRole('radio', { name: 'Single-page app' })).toHaveProperty('checked', true);
    expect(envText()).toBe(envBlock('spa', quickstartValues(project)));
    const steps = within(quickstart).getByRole('list', { name: 'Steps' });
    expect(within(steps).getAllByRole('listitem')).toHaveLength(3);
    expect(steps.textContent).toContain('<AuthProvider');

    await user.click(within(quickstart).getByRole('button', { name: 'Copy .env' }));
    expect(await navigator.clipboard.readText()).toBe(envBlock('spa', quickstartValues(project)));
    expect(within(quickstart).getByRole('button', { name: 'Test sign-in' })).toBeTruthy();
  });

  it('switches kind, and remembers the choice for the project', async () => {
    const first = renderApp('/projects/p_q', { user: sampleUser, handlers });
    const quickstart = await screen.findByRole('region', { name: 'Quickstart' });
    await first.user.click(within(quickstart).getByText('Backend only'));
    expect(envText()).toContain('AUTHPLATFORM_API_KEY=sk_test_...');
    expect(within(quickstart).getByRole('list', { name: 'Steps' }).textContent).toContain('createPublicApiClient');
    await first.user.click(within(quickstart).getByText('Mobile app'));
    expect(within(quickstart).getByRole('list', { name: 'Steps' }).textContent).toContain("issuer: 'https://auth.example.com/projects/pk_rocket'");
    first.unmount();

    renderApp('/projects/p_q', { user: sampleUser, handlers });
    const again = await screen.findByRole('region', { name: 'Quickstart' });
    expect(within(again).getByRole('radio', { name: 'Mobile app' })).toHaveProperty('checked', true);
  });

  it('says that redirect URIs are exact outside development', async () => {
    renderApp('/projects/p_q', { user: sampleUser, handlers: { ...handlers, 'projects.get': () => ({ ...project, environment: 'production' }) } });
    expect(await screen.findByText('Redirect URIs are exact here')).toBeTruthy();
  });
});

describe('the test sign-in page', () => {
  it('refuses a callback this browser did not start, and keeps the code out of the address bar', async () => {
    renderApp('/test-sign-in/callback?code=stolen&state=someone-elses&iss=https%3A%2F%2Fauth.example.com', { user: sampleUser });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This browser did not start this test sign-in');
    expect(screen.getByTestId('location').textContent).toBe('/test-sign-in/callback');
  });
});
