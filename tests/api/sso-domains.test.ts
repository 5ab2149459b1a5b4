import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { startTestDnsServer, type TestDnsServer } from '../helpers/dns-txt-server.js';
import { idpMetadataXml } from '../helpers/identity-providers/saml.js';

/**
 * An SSO connection's domains are claimed by DNS proof (SSO_DOMAIN_VERIFICATION's default): until its
 * TXT record is seen a domain routes no sign-in; a domain is verified for one connection per project.
 * The records are published on a DNS server on loopback that this process resolves through.
 */

const APP_CALLBACK = 'https://app.example/auth/callback';
let t: TestApp;
let dnsServer: TestDnsServer;
let seq = 0;

async function newProject() {
  const owner = await t.signUpAndLogIn(uniqueEmail('sso-domains'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'B2B', redirect_uris: [APP_CALLBACK] } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  const organization = (await t.call('POST', '/public/api/v1/organizations', { headers: { 'x-api-key': key.secret }, body: { name: 'Acme' } })).json();
  return { id: project.id as string, apiKey: key.secret as string, token: owner.access_token, organizationId: organization.id as string };
}

beforeAll(async () => {
  dnsServer = await startTestDnsServer();
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await dnsServer.close();
});

describe('SSO domains: DNS proof', () => {
  it('an unverified domain routes no sign-in; its TXT record verifies it, and then it does', async () => {
    const project = await newProject();
    const domain = `corp-${process.pid}-${++seq}.example`;
    const created = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
      token: project.token,
      body: { organization_id: project.organizationId, type: 'saml', name: 'Corp', domains: [domain], saml: { idp_metadata_xml: idpMetadataXml() } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const connection = created.json();
    const [record] = connection.domains;
    expect(record).toMatchObject({ domain, verified: false, verified_at: null, txt_record_name: `_authplatform-verification.${domain}` });
    expect(record.txt_record_value).toMatch(/^authplatform-domain-verification=.{20,}$/);

    const authorize = () =>
      t.call('GET', `/public/api/v1/auth/sso/authorize?${new URLSearchParams({ email: `jo@${domain}`, redirect_uri: APP_CALLBACK, state: 'app-state-1' })}`, { headers: { 'x-api-key': project.apiKey } });
    expect((await authorize()).statusCode).toBe(404);

    const verify = () => t.call('POST', `/api/v1/projects/${project.id}/sso-connections/${connection.id}/verify-domains`, { token: project.token });
    // No record yet, then a wrong one: still unverified.
    expect((await verify()).json().domains[0].verified).toBe(false);
    dnsServer.setTxt(record.txt_record_name, ['authplatform-domain-verification=someone-elses-token']);
    expect((await verify()).json().domains[0].verified).toBe(false);
    expect((await authorize()).statusCode).toBe(404);

    dnsServer.setTxt(record.txt_record_name, ['v=spf1 -all', record.txt_record_value]);
    const verified = await verify();
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().domains[0]).toMatchObject({ domain, verified: true });
    expect((await authorize()).statusCode).toBe(200);

    // Another connection of the project cannot claim the domain any more.
    const second = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
      token: project.token,
      body: { organization_id: project.organizationId, type: 'saml', name: 'Copy', domains: [domain], saml: { idp_metadata_xml: idpMetadataXml() } },
    });
    expect(second.statusCode).toBe(409);

    // Taking the domain off the connection stops the routing at once.
    await t.call('PATCH', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: project.token, body: { domains: [] } });
    expect((await authorize()).statusCode).toBe(404);
  });
});

describe('SSO domains: one connection each', () => {
  it('a domain two connections listed goes to the first proven; the second hears 409 naming it, and its other domains are verified', async () => {
    const project = await newProject();
    const shared = `shared-${process.pid}-${++seq}.example`;
    const own = `own-${process.pid}-${++seq}.example`;
    const create = async (name: string, domains: string[]) => {
      const created = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
        token: project.token,
        body: { organization_id: project.organizationId, type: 'saml', name, domains, saml: { idp_metadata_xml: idpMetadataXml() } },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json() as { id: string; domains: { domain: string; txt_record_name: string; txt_record_value: string }[] };
    };
    const first = await create('First', [shared]);
    const second = await create('Second', [shared, own]);
    const recordOf = (connection: typeof first, domain: string) => connection.domains.find((entry) => entry.domain === domain)!;
    // Both prove the shared domain (its record holds both values), and the second its own one.
    dnsServer.setTxt(recordOf(first, shared).txt_record_name, [recordOf(first, shared).txt_record_value, recordOf(second, shared).txt_record_value]);
    dnsServer.setTxt(recordOf(second, own).txt_record_name, [recordOf(second, own).txt_record_value]);
    const verify = (connection: typeof first) => t.call('POST', `/api/v1/projects/${project.id}/sso-connections/${connection.id}/verify-domains`, { token: project.token });

    expect((await verify(first)).statusCode).toBe(200);
    const refused = await verify(second);
    expect([refused.statusCode, refused.json()]).toEqual([409, { detail: `This domain is already verified for another SSO connection of this project: ${shared}` }]);
    const after = (await t.call('GET', `/api/v1/projects/${project.id}/sso-connections/${second.id}`, { token: project.token })).json();
    expect(after.domains.map((entry: { domain: string; verified: boolean }) => [entry.domain, entry.verified])).toEqual(
      expect.arrayContaining([
        [shared, false],
        [own, true],
      ]),
    );
  });
});
