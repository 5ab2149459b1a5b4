import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../server/lib/crypto.js';
import { createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { freePort } from '../helpers/tcp-probe.js';

/**
 * A project's machine clients: managed by its team over REST, and signing in as themselves at the
 * project's token endpoint with grant_type=client_credentials, driven by openid-client as a real
 * client and verified with jose against the project's published keys.
 */

const insecure = { execute: [oidc.allowInsecureRequests] };
const CC_LIMIT = 6;

let t: TestApp;
let appUrl: string;
let dev: { access_token: string };
let project: { id: string; key: string; issuer: string; apiKey: string };

interface CreatedClient {
  id: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
}

async function createClient(body: Record<string, unknown> = { name: 'Billing job', scopes: ['invoices:read', 'invoices:write'] }, projectId = project.id): Promise<CreatedClient> {
  const created = await t.call('POST', `/api/v1/projects/${projectId}/machine-clients`, { token: dev.access_token, body });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

/** A raw token call from its own address (per-address limits stay apart), with client_secret_post unless headers say otherwise. */
async function tokenCall(form: Record<string, string>, headers: Record<string, string> = {}, ip = uniqueIp()) {
  const response = await fetch(`${project.issuer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` });

function jwks() {
  return createRemoteJWKSet(new URL(`${appUrl}/public/api/v1/projects/${project.key}/jwks.json`));
}

beforeAll(async () => {
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { APP_URL: appUrl, TRUST_PROXY: '127.0.0.1' }, limits: { clientCredentialsPerIp: { points: CC_LIMIT, durationS: 60 } } });
  await t.app.listen({ port, host: '127.0.0.1' });
  dev = await t.signUpAndLogIn(uniqueEmail('dev'));
  const created = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Billing' } });
  const key = await t.call('POST', `/api/v1/projects/${created.json().id}/api-keys`, { token: dev.access_token, body: { name: 'backend' } });
  project = { id: created.json().id, key: created.json().project_key, issuer: created.json().issuer, apiKey: key.json().secret };
});
afterAll(() => t.close());

describe('managing machine clients', () => {
  it('shows the secret once, keeps only its SHA-256, and lists the client without it', async () => {
    const client = await createClient();
    expect(client.client_id).toMatch(/^mc_[0-9a-f]{24}$/);
    expect(client.client_secret).toMatch(/^mcs_[A-Za-z0-9_-]{43}$/);
    expect(client.scopes).toEqual(['invoices:read', 'invoices:write']);

    const row = await t.db.selectFrom('machine_clients').selectAll().where('id', '=', client.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha256(client.client_secret));
    expect(JSON.stringify(row)).not.toContain(client.client_secret);

    const list = await t.call('GET', `/api/v1/projects/${project.id}/machine-clients`, { token: dev.access_token });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(client.client_secret);
    const listed = list.json().machine_clients.find((c: { id: string }) => c.id === client.id);
    expect(listed).toMatchObject({ client_id: client.client_id, secret_hint: client.client_secret.slice(-4), last_used_at: null, revoked_at: null });
    expect(listed).not.toHaveProperty('client_secret');

    const one = await t.call('GET', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token });
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(client.client_secret);
  });

  it('refuses scopes of end users and malformed ones, and another developer sees no client', async () => {
    const userScope = await t.call('POST', `/api/v1/projects/${project.id}/machine-clients`, { token: dev.access_token, body: { name: 'x', scopes: ['openid'] } });
    expect(userScope.statusCode).toBe(422);
    const spaced = await t.call('POST', `/api/v1/projects/${project.id}/machine-clients`, { token: dev.access_token, body: { name: 'x', scopes: ['a b'] } });
    expect(spaced.statusCode).toBe(422);

    const client = await createClient({ name: 'Private', scopes: [] });
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    for (const [method, url] of [
      ['GET', `/api/v1/projects/${project.id}/machine-clients`],
      ['POST', `/api/v1/projects/${project.id}/machine-clients/${client.id}/rotate-secret`],
      ['DELETE', `/api/v1/projects/${project.id}/machine-clients/${client.id}`],
    ] as const) {
      const response = await t.call(method, url, { token: stranger.access_token });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('audits creation, rotation, revocation and deletion', async () => {
    const client = await createClient({ name: 'Audited', scopes: ['reports:read'] });
    await t.call('POST', `/api/v1/projects/${project.id}/machine-clients/${client.id}/rotate-secret`, { token: dev.access_token });
    await t.call('PATCH', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token, body: { revoked: true } });
    await t.call('DELETE', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token });
    const log = await t.call('GET', `/api/v1/projects/${project.id}/audit-log?per_page=100`, { token: dev.access_token });
    const actions = (log.json().entries as { action: string; target_id: string }[]).filter((entry) => entry.target_id === client.id).map((entry) => entry.action);
    expect(actions.sort()).toEqual(['machine_client.created', 'machine_client.deleted', 'machine_client.revoked', 'machine_client.secret_rotated']);
    expect(log.body).not.toContain(client.client_secret);
  });
});

describe('grant_type=client_credentials', () => {
  it('answers a token verifiable against the project keys, with the client as subject and its scopes, and nothing else', async () => {
    const client = await createClient();
    const config = await oidc.discovery(new URL(project.issuer), client.client_id, client.client_secret, oidc.ClientSecretBasic(client.client_secret), insecure);
    expect(config.serverMetadata().grant_types_supported).toContain('client_credentials');
    expect(config.serverMetadata().token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post']));

    const tokens = await oidc.clientCredentialsGrant(config);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('invoices:read invoices:write');
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();

    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks(), { issuer: project.issuer, audience: project.key, typ: 'at+jwt' });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ sub: client.client_id, client_id: client.client_id, scope: 'invoices:read invoices:write', permissions: ['invoices:read', 'invoices:write'] });
    expect(payload).not.toHaveProperty('sid');
    expect(typeof payload.jti).toBe('string');
    expect(decodeProtectedHeader(tokens.access_token).kid).toBeTruthy();

    const used = await t.call('GET', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token });
    expect(used.json().last_used_at).not.toBeNull();
  });

  it('takes client_secret_post too, and narrows to the scopes asked for', async () => {
    const client = await createClient();
    const answer = await tokenCall({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, scope: 'invoices:read' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', scope: 'invoices:read' });
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    const { payload } = await jwtVerify(answer.body.access_token as string, jwks(), { issuer: project.issuer, audience: project.key });
    expect(payload.scope).toBe('invoices:read');
    // The project's lifetime (a day by default), at most an hour for a machine: revoking a client stops its tokens within it.
    expect(answer.body.expires_in).toBe(3600);
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it('refuses a scope outside the allowed ones with invalid_scope', async () => {
    const client = await createClient();
    const answer = await tokenCall({ grant_type: 'client_credentials', scope: 'invoices:read users:delete' }, basic(client.client_id, client.client_secret));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_scope');
  });

  it('refuses a wrong secret, an unknown client and another project\'s client with invalid_client, 401 and WWW-Authenticate', async () => {
    const client = await createClient();
    const other = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Other' } });
    const foreign = await createClient({ name: 'Foreign', scopes: [] }, other.json().id);
    for (const [label, headers] of [
      ['wrong secret', basic(client.client_id, `${client.client_secret.slice(0, -1)}x`)],
      ['unknown client', basic('mc_000000000000000000000000', client.client_secret)],
      ['other project', basic(foreign.client_id, foreign.client_secret)],
      ['no secret', {}],
    ] as const) {
      const form: Record<string, string> = { grant_type: 'client_credentials', ...(label === 'no secret' ? { client_id: client.client_id } : {}) };
      const answer = await tokenCall(form, headers);
      expect(answer.status, label).toBe(401);
      expect(answer.body.error, label).toBe('invalid_client');
      expect(answer.headers.get('www-authenticate'), label).toBe(`Basic realm="${project.issuer}", charset="UTF-8"`);
    }
  });

  it('stops the old secret at rotation, and the client at revocation', async () => {
    const client = await createClient();
    const rotated = await t.call('POST', `/api/v1/projects/${project.id}/machine-clients/${client.id}/rotate-secret`, { token: dev.access_token });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().client_secret as string;
    expect(fresh).not.toBe(client.client_secret);
    expect(rotated.json().secret_rotated_at).not.toBeNull();

    const old = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret));
    expect(old.status).toBe(401);
    const renewed = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, fresh));
    expect(renewed.status).toBe(200);

    const revoked = await t.call('PATCH', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token, body: { revoked: true } });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).not.toBeNull();
    const afterRevocation = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, fresh));
    expect(afterRevocation.status).toBe(401);
    expect(afterRevocation.body.error).toBe('invalid_client');
    const rotateRevoked = await t.call('POST', `/api/v1/projects/${project.id}/machine-clients/${client.id}/rotate-secret`, { token: dev.access_token });
    expect(rotateRevoked.statusCode).toBe(409);
  });

  it('stops a deleted client, and narrows later tokens to changed scopes', async () => {
    const client = await createClient();
    const patched = await t.call('PATCH', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token, body: { scopes: ['invoices:read'], name: 'Renamed' } });
    expect(patched.json()).toMatchObject({ name: 'Renamed', scopes: ['invoices:read'] });
    const narrowed = await tokenCall({ grant_type: 'client_credentials', scope: 'invoices:write' }, basic(client.client_id, client.client_secret));
    expect(narrowed.body.error).toBe('invalid_scope');

    const deleted = await t.call('DELETE', `/api/v1/projects/${project.id}/machine-clients/${client.id}`, { token: dev.access_token });
    expect(deleted.statusCode).toBe(200);
    const answer = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret));
    expect(answer.status).toBe(401);
  });

  it("gives a token that is no end user's: the project's userinfo and public API refuse it", async () => {
    const client = await createClient();
    const answer = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret));
    const token = answer.body.access_token as string;
    const userinfo = await fetch(`${project.issuer}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
    expect(userinfo.status).toBe(401);
    const me = await t.call('GET', '/public/api/v1/profile', { headers: { 'x-api-key': project.apiKey, authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(401);
  });

  it('keeps a machine client to its grant, and the project client out of client_credentials', async () => {
    const client = await createClient();
    const code = await tokenCall({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://app.example/cb', code_verifier: 'v'.repeat(43) }, basic(client.client_id, client.client_secret));
    expect(code.body.error).toBe('unauthorized_client');
    const asProject = await tokenCall({ grant_type: 'client_credentials' }, basic(project.key, project.apiKey));
    expect(asProject.body.error).toBe('unauthorized_client');
  });

  it('limits token calls per client network, wrong secrets included', async () => {
    const client = await createClient();
    const ip = uniqueIp();
    for (let i = 0; i < CC_LIMIT; i += 1) {
      const answer = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, i % 2 ? 'wrong' : client.client_secret), ip);
      expect(answer.status).toBe(i % 2 ? 401 : 200);
    }
    const refused = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret), ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('slow_down');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret));
    expect(elsewhere.status).toBe(200);
  });

  it('counts secrets tried under another grant type against the same budget', async () => {
    const client = await createClient();
    const ip = uniqueIp();
    for (let i = 0; i < CC_LIMIT; i += 1) {
      const answer = await tokenCall({ grant_type: 'refresh_token', refresh_token: 'x' }, basic(client.client_id, `wrong-${i}`), ip);
      expect(answer.status).toBe(401);
    }
    const refused = await tokenCall({ grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret), ip);
    expect(refused.status).toBe(429);
  });
});
