import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { PortalOverview } from '../../client/portal/portalApi';
import type { SsoConnection } from '../../shared/schemas/sso';
import { renderApp, sampleProject, sampleUser } from './utils';

/** The self-serve setup portal (/portal) over its REST API, and the dashboard's "Create setup link". */

const APP = 'http://localhost:3000';
const METADATA = '<EntityDescriptor entityID="http://www.okta.com/exk1"><IDPSSODescriptor/></EntityDescriptor>';
const NEXT = { sp_entity_id: `${APP}/sso/saml/sso_9`, acs_url: `${APP}/sso/saml/sso_9/acs`, sp_metadata_url: `${APP}/sso/saml/sso_9/metadata`, oidc_callback_url: `${APP}/sso/oidc/sso_9/callback` };

const created: SsoConnection = {
  id: 'sso_9',
  organization_id: 'org_1',
  type: 'saml',
  name: 'Acme Okta',
  enabled: true,
  domains: [{ domain: 'acme.com', verified: false, verified_at: null, txt_record_name: '_authplatform-verification.acme.com', txt_record_value: 'authplatform-domain-verification=abc' }],
  default_role: 'org:member',
  attribute_mapping: {},
  allow_idp_initiated: false,
  enforce: false,
  saml: { idp_entity_id: 'http://www.okta.com/exk1', idp_sso_url: 'https://acme.okta.com/sso', idp_metadata_url: null, idp_certificates: [], sp_entity_id: NEXT.sp_entity_id, acs_url: NEXT.acs_url, sp_metadata_url: NEXT.sp_metadata_url, sp_certificate: '', sign_authn_requests: false, require_encrypted_assertions: false },
  oidc: null,
  scim: { enabled: false, base_url: `${APP}/scim/v2/sso_9`, token_created_at: null },
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
};

type Call = { method: string; url: string; body: unknown };

function portalServer(options: { opened?: 'ok' | 'used'; testResult?: unknown } = {}) {
  let connections: SsoConnection[] = [];
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const overview = (): PortalOverview => ({ organization: { id: 'org_1', name: 'Acme Inc.' }, expires_at: '2030-01-01T01:00:00.000Z', connections, next_connection: NEXT });
    switch (`${call.method} ${call.url}`) {
      case 'POST /portal/api/v1/session':
        return options.opened === 'used'
          ? answer(401, { detail: 'This setup link was already opened: each link opens once. Ask the person who sent it for a new one' })
          : answer(201, { organization: { id: 'org_1', name: 'Acme Inc.' }, expires_at: '2030-01-01T01:00:00.000Z' });
      case 'GET /portal/api/v1/organization':
        return answer(200, overview());
      case 'POST /portal/api/v1/connections':
        connections = [created];
        return answer(201, created);
      case 'POST /portal/api/v1/connections/sso_9/verify-domains':
        connections = [{ ...created, domains: created.domains.map((d) => ({ ...d, verified: true, verified_at: '2025-03-02T00:00:00.000Z' })) }];
        return answer(200, connections[0]);
      case 'POST /portal/api/v1/connections/sso_9/scim-token':
        return answer(201, { token: 'scim_shown_once_123', base_url: `${APP}/scim/v2/sso_9`, created_at: '2025-03-02T00:00:00.000Z' });
      case 'GET /portal/api/v1/test-result':
        return answer(200, { result: options.testResult ?? null });
      default:
        return answer(404, { detail: 'Not found' });
    }
  });
  return calls;
}

describe('the setup portal', () => {
  it('opens the link with a button, shows the Okta guide with the values to copy, adds a SAML connection, verifies its domain and shows the SCIM token once', async () => {
    const calls = portalServer();
    const { user } = renderApp('/portal/tok_123');
    // Nothing is spent until the button is pressed (a link preview only fetches the page).
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    await user.click(await screen.findByRole('button', { name: 'Start the setup' }));
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/portal/api/v1/session', body: { token: 'tok_123' } });

    expect(await screen.findByRole('heading', { name: 'Single sign-on for Acme Inc.' })).toBeTruthy();
    // No dashboard navigation in the portal.
    expect(screen.queryByRole('link', { name: /projects/i })).toBeNull();
    const steps = within(screen.getByRole('list', { name: 'Okta steps' }));
    expect(steps.getByText(/Create App Integration/)).toBeTruthy();
    expect(steps.getByText(NEXT.acs_url)).toBeTruthy();
    expect(steps.getByText(NEXT.sp_entity_id)).toBeTruthy();
    expect(steps.getAllByRole('button', { name: /^Copy ACS URL/ }).length).toBeGreaterThan(0);
    expect(screen.getByText(/SCIM connector base URL/)).toBeTruthy();

    await user.click(screen.getAllByRole('radio', { name: 'Microsoft Entra ID' })[0]!);
    expect(within(screen.getByRole('list', { name: 'Microsoft Entra ID steps' })).getByText(/Federation Metadata XML/)).toBeTruthy();
    await user.click(screen.getAllByRole('radio', { name: 'Okta' })[0]!);

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Acme Okta');
    await user.click(screen.getByRole('textbox', { name: /^IdP metadata XML/ }));
    await user.paste(METADATA);
    await user.type(screen.getByRole('textbox', { name: /^Domains/ }), 'acme.com{enter}');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url === '/portal/api/v1/connections')).toBe(true));
    const body = calls.find((call) => call.method === 'POST' && call.url === '/portal/api/v1/connections')!.body;
    expect(body).toEqual({ type: 'saml', name: 'Acme Okta', domains: ['acme.com'], saml: { idp_metadata_xml: METADATA } });

    const card = within(await screen.findByRole('region', { name: 'Acme Okta' }));
    expect(card.getByText('authplatform-domain-verification=abc')).toBeTruthy();
    await user.click(card.getByRole('button', { name: 'Check the DNS records' }));
    expect(await card.findByText('Verified')).toBeTruthy();

    await user.click(card.getByRole('button', { name: 'Create a SCIM token' }));
    expect(await card.findByText('scim_shown_once_123')).toBeTruthy();
    expect(card.getByText(/shown only once/)).toBeTruthy();
  });

  it('says clearly when the link was already opened', async () => {
    portalServer({ opened: 'used' });
    const { user } = renderApp('/portal/tok_used');
    await user.click(await screen.findByRole('button', { name: 'Start the setup' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link cannot be opened');
    expect(alert.textContent).toContain('already opened');
  });

  it('shows what the IdP sent after a test', async () => {
    portalServer({ testResult: { connection_id: 'sso_9', ok: true, error: null, email: 'jane@acme.com', first_name: 'Jane', last_name: 'Doe', groups: ['Engineering'], domain_verified: true, tested_at: '2025-03-02T00:00:00.000Z' } });
    renderApp('/portal?test=ok');
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('The test sign-in worked');
    expect(status.textContent).toContain('jane@acme.com');
    expect(status.textContent).toContain('Jane');
    expect(status.textContent).toContain('Engineering');
  });
});

describe('Create setup link (dashboard)', () => {
  it('creates the link for the chosen organization and shows it once with a copy button', async () => {
    const calls: Call[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const call = { method: init?.method ?? 'GET', url: String(input), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(call);
      const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (call.url === '/api/v1/projects/p_1/sso-connections') return answer(200, { connections: [] });
      if (call.url === '/api/v1/projects/p_1/organizations/org_1/admin-portal-links') return answer(201, { url: `${APP}/portal/tok_abc`, expires_at: '2030-01-02T00:00:00.000Z' });
      return answer(404, { detail: 'Not found' });
    });
    const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', role: 'owner' });
    const organization = { id: 'org_1', name: 'Acme', slug: 'acme', logo_url: null, public_metadata: {}, private_metadata: {}, members_count: 1, created_at: '2025-02-01T00:00:00.000Z', updated_at: '2025-02-01T00:00:00.000Z' };
    const { user } = renderApp('/projects/p_1/settings/enterprise-sso', {
      user: sampleUser,
      handlers: { 'projects.get': () => project, 'organizations.list': () => ({ organizations: [organization], total: 1 }), 'organizations.roles': () => ({ roles: [], permissions: [] }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Create setup link' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create setup link' }));
    await user.click(dialog.getByRole('button', { name: 'Create link' }));
    expect(await dialog.findByText(`${APP}/portal/tok_abc`)).toBeTruthy();
    expect(dialog.getByRole('button', { name: /Copy the setup link/ })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ url: '/api/v1/projects/p_1/organizations/org_1/admin-portal-links', body: { expires_in_hours: 24 } });
  });
});
