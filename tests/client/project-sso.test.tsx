import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Organization } from '../../shared/schemas/organizations';
import type { SsoConnection } from '../../shared/schemas/sso';
import { renderApp, sampleEndUserSettings, sampleProject, sampleUser } from './utils';

/** Project → Settings → Enterprise SSO over the REST API (/api/v1/projects/{id}/sso-connections). */

const BASE = '/api/v1/projects/p_1/sso-connections';
const APP = 'http://localhost:3000';
const TOKEN = 'scim_Zmlyc3Qtc2NpbS10b2tlbi1zaG93bi1vbmNlLTEyMzQ1Ng';
const ROTATED = 'scim_cm90YXRlZC1zY2ltLXRva2VuLXNob3duLW9uY2UtOTg3Ng';
const METADATA = '<EntityDescriptor entityID="http://www.okta.com/exk1"><IDPSSODescriptor/></EntityDescriptor>';

const organization = (id: string, name: string): Organization => ({
  id,
  name,
  slug: name.toLowerCase(),
  logo_url: null,
  public_metadata: {},
  private_metadata: {},
  members_count: 3,
  created_at: '2025-02-01T00:00:00.000Z',
  updated_at: '2025-02-01T00:00:00.000Z',
});

const samlConnection = (overrides: Partial<SsoConnection> = {}): SsoConnection => {
  const id = overrides.id ?? 'sso_1';
  return {
    id,
    organization_id: 'org_1',
    type: 'saml',
    name: 'Acme Okta',
    enabled: true,
    domains: [
      { domain: 'acme.com', verified: true, verified_at: '2025-03-01T00:00:00.000Z', txt_record_name: '_authplatform-verification.acme.com', txt_record_value: 'authplatform-domain-verification=aaa' },
      { domain: 'acme.io', verified: false, verified_at: null, txt_record_name: '_authplatform-verification.acme.io', txt_record_value: 'authplatform-domain-verification=bbb' },
    ],
    default_role: 'org:member',
    attribute_mapping: {},
    allow_idp_initiated: false,
    enforce: false,
    saml: {
      idp_entity_id: 'http://www.okta.com/exk1',
      idp_sso_url: 'https://acme.okta.com/app/sso/saml',
      idp_metadata_url: null,
      idp_certificates: [{ not_after: '2030-01-01T00:00:00.000Z', subject: 'CN=acme' }],
      sp_entity_id: `${APP}/sso/saml/${id}`,
      acs_url: `${APP}/sso/saml/${id}/acs`,
      sp_metadata_url: `${APP}/sso/saml/${id}/metadata`,
      sp_certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      sign_authn_requests: false,
      require_encrypted_assertions: false,
    },
    oidc: null,
    scim: { enabled: true, base_url: `${APP}/scim/v2/${id}`, token_created_at: '2025-03-02T00:00:00.000Z' },
    created_at: '2025-03-01T00:00:00.000Z',
    updated_at: '2025-03-01T00:00:00.000Z',
    ...overrides,
  };
};

const globexOidc = samlConnection({
  id: 'sso_2',
  organization_id: 'org_2',
  type: 'oidc',
  name: 'Globex Entra',
  enabled: false,
  domains: [],
  saml: null,
  oidc: { issuer: 'https://login.microsoftonline.com/t/v2.0', client_id: 'globex-client', callback_url: `${APP}/sso/oidc/sso_2/callback` },
  scim: { enabled: false, base_url: `${APP}/scim/v2/sso_2`, token_created_at: null },
});

type Call = { method: string; url: string; body: unknown };
type Refusal = { status: number; detail: string };

/** A server holding the connections in memory, recording every REST call; `refuse` answers a route with a refusal. */
function ssoServer(initial: SsoConnection[], refuse: Record<string, Refusal> = {}) {
  let connections = [...initial];
  let tokens = [TOKEN, ROTATED];
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const refusal = refuse[`${call.method} ${call.url}`];
    if (refusal) return answer(refusal.status, { detail: refusal.detail });
    const match = /^\/api\/v1\/projects\/p_1\/sso-connections(?:\/([^/]+))?(?:\/([a-z-]+))?$/.exec(call.url);
    if (!match) return answer(404, { detail: 'Not found' });
    const [, id, action] = match;
    const found = connections.find((connection) => connection.id === id);
    const replace = (changed: SsoConnection) => {
      connections = connections.map((connection) => (connection.id === changed.id ? changed : connection));
      return changed;
    };
    if (!id && call.method === 'GET') return answer(200, { connections });
    if (!id && call.method === 'POST') {
      const body = call.body as { name: string; organization_id: string; domains: string[] };
      const created = samlConnection({
        id: 'sso_3',
        name: body.name,
        organization_id: body.organization_id,
        domains: body.domains.map((domain) => ({ domain, verified: false, verified_at: null, txt_record_name: `_authplatform-verification.${domain}`, txt_record_value: 'authplatform-domain-verification=ccc' })),
        scim: { enabled: false, base_url: `${APP}/scim/v2/sso_3`, token_created_at: null },
      });
      connections = [...connections, created];
      return answer(201, created);
    }
    if (!found) return answer(404, { detail: 'SSO connection not found' });
    if (!action && call.method === 'PATCH') {
      // As the server answers: the new domains as records (a domain kept keeps its state).
      // The IdP's settings come back read from them (the metadata's entity id and certificates), not as sent.
      const { domains, saml: sentSaml, oidc, ...changes } = call.body as Omit<Partial<SsoConnection>, 'domains' | 'saml' | 'oidc'> & {
        domains?: string[];
        saml?: { idp_metadata_xml?: string; idp_metadata_url?: string; sign_authn_requests?: boolean; require_encrypted_assertions?: boolean };
        oidc?: { issuer: string; client_id: string };
      };
      if (oidc && found.oidc) Object.assign(changes, { oidc: { ...found.oidc, issuer: oidc.issuer, client_id: oidc.client_id } });
      const records = domains?.map(
        (domain) =>
          found.domains.find((kept) => kept.domain === domain) ?? { domain, verified: false, verified_at: null, txt_record_name: `_authplatform-verification.${domain}`, txt_record_value: 'authplatform-domain-verification=ddd' },
      );
      // The SAML options change within the connection's saml.
      const { idp_metadata_xml: _xml, idp_metadata_url: _url, ...samlOptions } = sentSaml ?? {};
      const saml = sentSaml && found.saml ? { saml: { ...found.saml, ...samlOptions } } : {};
      return answer(200, replace({ ...found, ...changes, ...saml, ...(records && { domains: records }) }));
    }
    if (!action && call.method === 'DELETE') {
      connections = connections.filter((connection) => connection !== found);
      return answer(200, { message: 'SSO connection deleted' });
    }
    if (action === 'verify-domains') return answer(200, replace({ ...found, domains: found.domains.map((domain) => ({ ...domain, verified: true, verified_at: '2025-03-05T00:00:00.000Z' })) }));
    if (action === 'scim-token' && call.method === 'POST') {
      const [token, ...rest] = tokens;
      tokens = rest;
      replace({ ...found, scim: { ...found.scim, enabled: true, token_created_at: '2025-03-05T00:00:00.000Z' } });
      return answer(201, { token, base_url: found.scim.base_url, created_at: '2025-03-05T00:00:00.000Z' });
    }
    if (action === 'scim-token' && call.method === 'DELETE') {
      replace({ ...found, scim: { ...found.scim, enabled: false, token_created_at: null } });
      return answer(200, { message: 'SCIM token revoked' });
    }
    return answer(404, { detail: 'Not found' });
  });
  return calls;
}

function render(role: 'owner' | 'admin' | 'viewer' = 'owner', organizations = [organization('org_1', 'Acme'), organization('org_2', 'Globex')]) {
  const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', role });
  return renderApp('/projects/p_1/settings/enterprise-sso', {
    user: sampleUser,
    handlers: {
      'projects.get': () => project,
      'organizations.list': () => ({ organizations, total: organizations.length }),
      'organizations.roles': () => ({
        roles: [
          { key: 'org:admin', name: 'Admin', description: null, permissions: [], built_in: true, created_at: null },
          { key: 'org:member', name: 'Member', description: null, permissions: [], built_in: true, created_at: null },
        ],
        permissions: [],
      }),
    },
  });
}

const connectionList = async () => within(await screen.findByRole('list', { name: 'SSO connections' }));
const row = async (name: string) => within((await connectionList()).getByRole('listitem', { name }));
const callsOf = (calls: Call[], method: string, url: string) => calls.filter((call) => call.method === method && call.url === url);

async function openDetails(user: ReturnType<typeof render>['user'], name: string) {
  await user.click((await row(name)).getByRole('button', { name: `Details of ${name}` }));
  return row(name);
}

async function fillSamlForm(user: ReturnType<typeof render>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Add connection' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Add SSO connection' }));
  await user.click(dialog.getByRole('textbox', { name: /^Organization/ }));
  await user.click(await screen.findByRole('option', { name: 'Globex', hidden: true }));
  await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'Globex Okta');
  await user.click(dialog.getByRole('textbox', { name: /^IdP metadata XML/ }));
  await user.paste(METADATA);
  await user.type(dialog.getByRole('textbox', { name: /^Domains/ }), 'globex.com{enter}');
  await user.click(dialog.getByRole('textbox', { name: /^Default role/ }));
  await user.click(await screen.findByRole('option', { name: 'Admin · org:admin', hidden: true }));
  return dialog;
}

describe('Project enterprise SSO', () => {
  it('lists the connections: type, organization, domains verified or not, enabled, SCIM', async () => {
    ssoServer([samlConnection({ enforce: true }), globexOidc]);
    render();
    const acme = await row('Acme Okta');
    expect(acme.getByText('SSO required')).toBeTruthy();
    expect(acme.getByText('SAML')).toBeTruthy();
    expect(acme.getByText('Enabled')).toBeTruthy();
    expect(acme.getByText('SCIM on')).toBeTruthy();
    await waitFor(() => expect(acme.getByText('Organization: Acme')).toBeTruthy());
    expect(acme.getByText('acme.com · verified')).toBeTruthy();
    expect(acme.getByText('acme.io · unverified')).toBeTruthy();
    const globex = await row('Globex Entra');
    expect(globex.getByText('OIDC')).toBeTruthy();
    expect(globex.getByText('Disabled')).toBeTruthy();
    expect(globex.queryByText('SCIM on')).toBeNull();
    expect(globex.queryByText('SSO required')).toBeNull();
    expect(globex.getByText('Organization: Globex')).toBeTruthy();
  });

  it('adds a SAML connection with the right body, then shows what the IdP needs', async () => {
    const calls = ssoServer([]);
    const { user } = render();
    expect(await screen.findByText(/No enterprise connections yet/)).toBeTruthy();
    const dialog = await fillSamlForm(user);
    await user.click(dialog.getByRole('switch', { name: 'Sign authentication requests' }));
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add SSO connection' })).toBeNull());
    expect(callsOf(calls, 'POST', BASE).map((call) => call.body)).toEqual([
      {
        organization_id: 'org_2',
        type: 'saml',
        name: 'Globex Okta',
        domains: ['globex.com'],
        default_role: 'org:admin',
        enabled: true,
        saml: { idp_metadata_xml: METADATA, sign_authn_requests: true },
      },
    ]);
    const created = await row('Globex Okta');
    expect(await created.findByText(`${APP}/sso/saml/sso_3/acs`)).toBeTruthy();
    expect(created.getByText(`${APP}/sso/saml/sso_3/metadata`)).toBeTruthy();
    expect(created.getByRole('button', { name: 'Copy the entity ID' })).toBeTruthy();
    expect(created.getByText('_authplatform-verification.globex.com')).toBeTruthy();
  });

  it('sends an OpenID Connect connection with its issuer, client id and secret', async () => {
    const calls = ssoServer([]);
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add SSO connection' }));
    await user.click(dialog.getByRole('textbox', { name: /^Organization/ }));
    await user.click(await screen.findByRole('option', { name: 'Acme', hidden: true }));
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'Acme Entra');
    await user.click(dialog.getByRole('radio', { name: 'OpenID Connect' }));
    await user.type(dialog.getByRole('textbox', { name: /^Issuer/ }), 'https://login.microsoftonline.com/t/v2.0');
    await user.type(dialog.getByRole('textbox', { name: /^Client ID/ }), 'acme-client');
    await user.type(dialog.getByLabelText(/^Client secret/), 's3cret');
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(callsOf(calls, 'POST', BASE)).toHaveLength(1));
    expect(callsOf(calls, 'POST', BASE)[0]!.body).toEqual({
      organization_id: 'org_1',
      type: 'oidc',
      name: 'Acme Entra',
      domains: [],
      default_role: 'org:member',
      enabled: true,
      oidc: { issuer: 'https://login.microsoftonline.com/t/v2.0', client_id: 'acme-client', client_secret: 's3cret' },
    });
  });

  it('sends to the organizations first when the project has none', async () => {
    const calls = ssoServer([]);
    const { user } = render('owner', []);
    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add SSO connection' }));
    expect(dialog.getByText(/this project has none yet/)).toBeTruthy();
    expect(dialog.getByRole('link', { name: 'Create an organization' }).getAttribute('href')).toBe('/projects/p_1?tab=organizations');
    expect(dialog.queryByRole('button', { name: 'Add connection' })).toBeNull();
    expect(callsOf(calls, 'POST', BASE)).toHaveLength(0);
  });

  it('shows the server’s refusal in words inside the dialog, which stays open', async () => {
    ssoServer([], { [`POST ${BASE}`]: { status: 422, detail: 'The IdP metadata is not usable: no signing certificate (KeyDescriptor with an X509Certificate)' } });
    const { user } = render();
    const dialog = await fillSamlForm(user);
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));
    const alert = await dialog.findByRole('alert');
    expect(alert.textContent).toContain('The IdP metadata is not usable: no signing certificate (KeyDescriptor with an X509Certificate)');
    expect(screen.getByRole('dialog', { name: 'Add SSO connection' })).toBeTruthy();
  });

  it('names the fields of a refusal as the form does (a metadata URL the server will not fetch)', async () => {
    const calls = ssoServer([], { [`POST ${BASE}`]: { status: 422, detail: 'idp_metadata_url must be an https URL' } });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add SSO connection' }));
    await user.click(dialog.getByRole('textbox', { name: /^Organization/ }));
    await user.click(await screen.findByRole('option', { name: 'Acme', hidden: true }));
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'Acme Okta');
    await user.click(dialog.getByRole('radio', { name: 'Metadata URL' }));
    await user.type(dialog.getByRole('textbox', { name: /^IdP metadata URL/ }), 'http://acme.okta.com/metadata');
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('IdP metadata URL must be an https URL');
    expect((callsOf(calls, 'POST', BASE)[0]!.body as { saml: unknown }).saml).toEqual({ idp_metadata_url: 'http://acme.okta.com/metadata' });
  });

  it('creates a SCIM token and shows it once: hidden after the dialog closes', async () => {
    const calls = ssoServer([globexOidc]);
    const { user } = render();
    const details = await openDetails(user, 'Globex Entra');
    expect(details.getByText(`${APP}/sso/oidc/sso_2/callback`)).toBeTruthy();
    expect(details.queryByRole('button', { name: 'Rotate' })).toBeNull();
    await user.click(details.getByRole('button', { name: 'Create SCIM token' }));

    const shown = within(await screen.findByRole('dialog', { name: 'Your SCIM token' }));
    expect(shown.getByText('Shown only once')).toBeTruthy();
    expect(shown.getByText(TOKEN)).toBeTruthy();
    expect(shown.getByText(`${APP}/scim/v2/sso_2`)).toBeTruthy();
    expect(shown.getByRole('button', { name: 'Copy the SCIM token' })).toBeTruthy();
    expect(callsOf(calls, 'POST', `${BASE}/sso_2/scim-token`)).toHaveLength(1);

    await user.click(shown.getByRole('button', { name: 'I have copied the token' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your SCIM token' })).toBeNull());
    expect(screen.queryByText(TOKEN)).toBeNull();
    const after = await row('Globex Entra');
    await waitFor(() => expect(after.getByText('SCIM on')).toBeTruthy());
    expect(after.getByRole('button', { name: 'Rotate' })).toBeTruthy();
  });

  it('rotates the SCIM token (POST, the new one shown once) and revokes it (DELETE), each after confirmation', async () => {
    const calls = ssoServer([samlConnection()]);
    const { user } = render();
    const details = await openDetails(user, 'Acme Okta');
    await user.click(details.getByRole('button', { name: 'Rotate' }));
    const rotate = within(await screen.findByRole('dialog', { name: 'Rotate the SCIM token' }));
    expect(callsOf(calls, 'POST', `${BASE}/sso_1/scim-token`)).toHaveLength(0);
    await user.click(rotate.getByRole('button', { name: 'Rotate' }));
    const shown = within(await screen.findByRole('dialog', { name: 'Your SCIM token' }));
    expect(shown.getByText(TOKEN)).toBeTruthy();
    expect(callsOf(calls, 'POST', `${BASE}/sso_1/scim-token`)).toHaveLength(1);
    await user.click(shown.getByRole('button', { name: 'I have copied the token' }));
    await waitFor(() => expect(screen.queryByText(TOKEN)).toBeNull());

    await user.click((await row('Acme Okta')).getByRole('button', { name: 'Revoke' }));
    const revoke = within(await screen.findByRole('dialog', { name: 'Revoke the SCIM token' }));
    await user.click(revoke.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(callsOf(calls, 'DELETE', `${BASE}/sso_1/scim-token`)).toHaveLength(1));
    const after = await row('Acme Okta');
    await waitFor(() => expect(after.getByRole('button', { name: 'Create SCIM token' })).toBeTruthy());
    expect(after.queryByText('SCIM on')).toBeNull();
  });

  it('checks the domains now through verify-domains, and turns the connection off with PATCH', async () => {
    const calls = ssoServer([samlConnection()]);
    const { user } = render();
    const details = await openDetails(user, 'Acme Okta');
    expect(details.getByText('_authplatform-verification.acme.io')).toBeTruthy();
    expect(details.getByText('authplatform-domain-verification=bbb')).toBeTruthy();
    await user.click(details.getByRole('button', { name: 'Check now' }));
    expect(await details.findByText(/Every domain is verified: its sign-ins go to this connection/)).toBeTruthy();
    expect(callsOf(calls, 'POST', `${BASE}/sso_1/verify-domains`)).toHaveLength(1);
    expect(details.getByText('acme.io · verified')).toBeTruthy();

    await user.click(details.getByRole('switch', { name: 'Enabled: Acme Okta' }));
    await waitFor(() => expect(callsOf(calls, 'PATCH', `${BASE}/sso_1`).map((call) => call.body)).toEqual([{ enabled: false }]));
    await waitFor(() => expect(details.getByText('Disabled')).toBeTruthy());
  });

  it('edits the name, domains and default role with PATCH, warning when a verified domain is dropped', async () => {
    const calls = ssoServer([samlConnection()]);
    const { user } = render();
    const details = await openDetails(user, 'Acme Okta');
    await user.click(details.getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit SSO connection' }));
    const name = dialog.getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Acme SSO');
    const domains = dialog.getByRole('textbox', { name: /^Domains/ });
    await user.click(domains);
    await user.keyboard('{Backspace}{Backspace}');
    expect(dialog.getByText(/Sign-ins of acme.com stop going to this connection/)).toBeTruthy();
    await user.type(domains, 'acme.io{enter}acme.dev{enter}');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsOf(calls, 'PATCH', `${BASE}/sso_1`).map((call) => call.body)).toEqual([
        { name: 'Acme SSO', domains: ['acme.io', 'acme.dev'], default_role: 'org:member', attribute_mapping: {}, enforce: false, allow_idp_initiated: false },
      ]),
    );
    expect(await (await connectionList()).findByRole('listitem', { name: 'Acme SSO' })).toBeTruthy();
  });

  it('edits the attribute mapping (groups to roles), requires SSO, allows IdP-initiated sign-in and replaces the metadata', async () => {
    const calls = ssoServer([samlConnection({ attribute_mapping: { email: 'mail' } })]);
    const { user } = render();
    const details = await openDetails(user, 'Acme Okta');
    await user.click(details.getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit SSO connection' }));
    expect((dialog.getByRole('textbox', { name: 'E-mail' }) as HTMLInputElement).value).toBe('mail');
    await user.type(dialog.getByRole('textbox', { name: 'First name' }), 'givenName');
    await user.type(dialog.getByRole('textbox', { name: 'Groups' }), 'memberOf');
    await user.click(dialog.getByRole('button', { name: 'Map a group to a role' }));
    await user.type(dialog.getByRole('textbox', { name: 'IdP group 1' }), 'Acme Admins');
    await user.click(dialog.getByRole('textbox', { name: 'Role for group 1' }));
    // The default role's list is mounted too (in its own portal, earlier): this row's is the last one.
    await user.click((await screen.findAllByRole('option', { name: 'Admin · org:admin', hidden: true })).at(-1)!);
    // A row left without its group is not sent.
    await user.click(dialog.getByRole('button', { name: 'Map a group to a role' }));
    await user.click(dialog.getByRole('switch', { name: /Require SSO for these domains/ }));
    await user.click(dialog.getByRole('switch', { name: /Allow IdP-initiated sign-in/ }));
    await user.type(dialog.getByRole('textbox', { name: /New IdP metadata XML/ }), '<md:EntityDescriptor/>');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsOf(calls, 'PATCH', `${BASE}/sso_1`).map((call) => call.body)).toEqual([
        {
          name: 'Acme Okta',
          domains: ['acme.com', 'acme.io'],
          default_role: 'org:member',
          attribute_mapping: { email: 'mail', first_name: 'givenName', groups: 'memberOf', group_roles: { 'Acme Admins': 'org:admin' } },
          enforce: true,
          allow_idp_initiated: true,
          saml: { idp_metadata_xml: '<md:EntityDescriptor/>' },
        },
      ]),
    );
  });

  it('shows the SP certificate to copy, and changes the SAML options alone with PATCH', async () => {
    const calls = ssoServer([samlConnection()]);
    const { user } = render();
    const details = await openDetails(user, 'Acme Okta');
    expect(details.getByRole('button', { name: 'Copy the SP certificate' })).toBeTruthy();
    await user.click(details.getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit SSO connection' }));
    expect((dialog.getByRole('switch', { name: 'Require encrypted assertions' }) as HTMLInputElement).checked).toBe(false);
    await user.click(dialog.getByRole('switch', { name: 'Require encrypted assertions' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsOf(calls, 'PATCH', `${BASE}/sso_1`).map((call) => call.body)).toEqual([
        { name: 'Acme Okta', domains: ['acme.com', 'acme.io'], default_role: 'org:member', attribute_mapping: {}, enforce: false, allow_idp_initiated: false, saml: { require_encrypted_assertions: true } },
      ]),
    );
  });

  it('edits an OpenID Connect connection: the client secret is sent only when a new one is typed', async () => {
    const calls = ssoServer([globexOidc]);
    const { user } = render();
    const details = await openDetails(user, 'Globex Entra');
    await user.click(details.getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit SSO connection' }));
    expect(dialog.queryByRole('switch', { name: /Allow IdP-initiated sign-in/ })).toBeNull();
    const clientId = dialog.getByRole('textbox', { name: /^Client ID/ });
    await user.clear(clientId);
    await user.type(clientId, 'globex-client-2');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsOf(calls, 'PATCH', `${BASE}/sso_2`)).toHaveLength(1));
    expect(callsOf(calls, 'PATCH', `${BASE}/sso_2`)[0]!.body).toMatchObject({ oidc: { issuer: 'https://login.microsoftonline.com/t/v2.0', client_id: 'globex-client-2' } });
    expect((callsOf(calls, 'PATCH', `${BASE}/sso_2`)[0]!.body as { oidc: object }).oidc).not.toHaveProperty('client_secret');
  });

  it('with more organizations than one page, searches them on the server and names a connection of one past the first page', async () => {
    const calls = ssoServer([globexOidc]);
    const firstPage = Array.from({ length: 100 }, (_, index) => organization(`org_p${index}`, `Company ${String(index).padStart(3, '0')}`));
    const zeta = organization('org_zeta', 'Zeta Industries');
    const searches: unknown[] = [];
    const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', role: 'owner' });
    const { user } = renderApp('/projects/p_1/settings/enterprise-sso', {
      user: sampleUser,
      handlers: {
        'projects.get': () => project,
        'organizations.list': (input) => {
          const { q } = input as { q?: string };
          searches.push(q);
          return q ? { organizations: [zeta].filter((org) => org.name.toLowerCase().includes(q.toLowerCase())), total: 1 } : { organizations: firstPage, total: 150 };
        },
        // Globex (org_2) is not on the first page: its name is read on its own.
        'organizations.get': (input) => organization((input as { organization_id: string }).organization_id, (input as { organization_id: string }).organization_id === 'org_2' ? 'Globex' : 'Other'),
        'organizations.roles': () => ({ roles: [{ key: 'org:member', name: 'Member', description: null, permissions: [], built_in: true, created_at: null }], permissions: [] }),
      },
    });
    expect(await (await row('Globex Entra')).findByText('Organization: Globex')).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add SSO connection' }));
    expect(dialog.getByText(/Type to search the project's 150 organizations/)).toBeTruthy();
    await user.type(dialog.getByRole('textbox', { name: /^Organization/ }), 'zeta');
    await user.click(await screen.findByRole('option', { name: 'Zeta Industries', hidden: true }));
    expect(searches).toContain('zeta');
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'Zeta Okta');
    await user.click(dialog.getByRole('textbox', { name: /^IdP metadata XML/ }));
    await user.paste(METADATA);
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(callsOf(calls, 'POST', BASE).map((call) => call.body)).toMatchObject([{ organization_id: 'org_zeta', name: 'Zeta Okta' }]));
  });

  it('deletes a connection only once its name is typed', async () => {
    const calls = ssoServer([samlConnection(), globexOidc]);
    const { user } = render();
    const details = await openDetails(user, 'Acme Okta');
    await user.click(details.getByRole('button', { name: 'Delete connection' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete SSO connection' }));
    const remove = confirm.getByRole('button', { name: 'Delete' });
    expect(remove).toHaveProperty('disabled', true);
    await user.type(confirm.getByRole('textbox', { name: 'Type Acme Okta to confirm' }), 'Acme');
    expect(remove).toHaveProperty('disabled', true);
    await user.click(remove);
    expect(callsOf(calls, 'DELETE', `${BASE}/sso_1`)).toHaveLength(0);
    await user.type(confirm.getByRole('textbox', { name: 'Type Acme Okta to confirm' }), ' Okta');
    expect(remove).toHaveProperty('disabled', false);
    await user.click(remove);
    await waitFor(() => expect(callsOf(calls, 'DELETE', `${BASE}/sso_1`)).toHaveLength(1));
    const list = await connectionList();
    await waitFor(() => expect(list.queryByRole('listitem', { name: 'Acme Okta' })).toBeNull());
    expect(list.getByRole('listitem', { name: 'Globex Entra' })).toBeTruthy();
  });

  it('shows a viewer the connections and their values, without the buttons that change them', async () => {
    ssoServer([samlConnection()]);
    const { user } = render('viewer');
    const details = await openDetails(user, 'Acme Okta');
    expect(details.getByText(`${APP}/sso/saml/sso_1/acs`)).toBeTruthy();
    expect(screen.getByText(/You are a viewer on this project/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add connection' })).toBeNull();
    for (const name of ['Check now', 'Rotate', 'Revoke', 'Create SCIM token', 'Edit', 'Delete connection']) expect(details.queryByRole('button', { name })).toBeNull();
    expect(details.queryByRole('switch')).toBeNull();
  });
});

describe('enterprise connections among the sign-in methods', () => {
  it('are named by their connection (not their sso:<id> key), social ones by their provider, and switch off by that key', async () => {
    ssoServer([samlConnection()]);
    const updates: unknown[] = [];
    const settings = { ...sampleEndUserSettings, sign_in_methods: { ...sampleEndUserSettings.sign_in_methods, connections: { github: true, 'sso:sso_1': true } } };
    const { user } = renderApp('/projects/p_1/settings/sign-in', {
      user: sampleUser,
      handlers: {
        'projects.get': () => sampleProject({ id: 'p_1', name: 'Acme Storefront' }),
        'projectSettings.get': () => settings,
        'projectSettings.update': (input) => {
          updates.push(input);
          return settings;
        },
        'social.connections': () => ({ connections: [] }),
      },
    });
    const enterprise = await screen.findByRole('switch', { name: /^Enterprise SSO: Acme Okta/ });
    expect(screen.getByRole('switch', { name: /^Connection: GitHub/ })).toBeTruthy();
    await user.click(enterprise);
    await waitFor(() => expect(updates).toEqual([{ id: 'p_1', sign_in_methods: { connections: { 'sso:sso_1': false } } }]));
  });
});
