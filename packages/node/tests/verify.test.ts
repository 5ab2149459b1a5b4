import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier, TokenError } from '../src/verify.js';

/**
 * The verifier against an issuer of our own: a JWKS server whose keys the test rotates, and tokens
 * signed as the platform signs a project's (ES256, typ at+jwt, iss <url>/projects/<key>, aud <key>).
 */
const PROJECT_KEY = 'pk_test';
let server: http.Server;
let url: string;
let published: JWK[] = [];
let jwksFetches = 0;

async function newKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

function sign(key: { kid: string; privateKey: CryptoKey }, claims: Record<string, unknown> = {}, options: { typ?: string; audience?: string; issuer?: string; expiresIn?: number } = {}) {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: 'session-1', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: options.typ ?? 'at+jwt' })
    .setSubject('user-1')
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.expiresIn ?? 300))
    .setIssuer(options.issuer ?? `${url}/projects/${PROJECT_KEY}`)
    .setAudience(options.audience ?? PROJECT_KEY)
    .sign(key.privateKey);
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === `/public/api/v1/projects/${PROJECT_KEY}/jwks.json`) {
      jwksFetches += 1;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: published }));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TokenError);
  return (error as TokenError).reason;
};

describe('offline verification', () => {
  it('accepts a valid token and fetches the keys once for many verifications', async () => {
    const key = await newKey('k1');
    published = [key.jwk];
    jwksFetches = 0;
    const verifier = createVerifier({ url, projectKey: PROJECT_KEY });
    for (let i = 0; i < 20; i++) {
      const claims = await verifier.verify(await sign(key, { n: i }));
      expect(claims).toMatchObject({ sub: 'user-1', sid: 'session-1', n: i });
    }
    expect(jwksFetches).toBe(1);
  });

  it('refuses expired, wrong audience, wrong issuer, wrong type, unknown key and tampered tokens', async () => {
    const key = await newKey('k2');
    const stranger = await newKey('k2');
    published = [key.jwk];
    const verifier = createVerifier({ url, projectKey: PROJECT_KEY, clockToleranceS: 0 });
    expect(await refusal(verifier.verify(await sign(key, {}, { expiresIn: -10 })))).toBe('expired');
    expect(await refusal(verifier.verify(await sign(key, {}, { audience: 'pk_other' })))).toBe('invalid');
    expect(await refusal(verifier.verify(await sign(key, {}, { issuer: `${url}/projects/pk_other` })))).toBe('invalid');
    expect(await refusal(verifier.verify(await sign(key, {}, { typ: 'JWT' })))).toBe('invalid');
    expect(await refusal(verifier.verify(await sign(stranger)))).toBe('invalid');
    const valid = await sign(key);
    const [header, , signature] = valid.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'admin', sid: 's', exp: 9e9, iat: 1, aud: PROJECT_KEY, iss: `${url}/projects/${PROJECT_KEY}` })).toString('base64url')}.${signature}`;
    expect(await refusal(verifier.verify(forged))).toBe('invalid');
    expect(await refusal(verifier.verify('not-a-token'))).toBe('invalid');
    expect(await refusal(verifier.verify(await sign(key, { sid: undefined })))).toBe('invalid');
  });

  it('a remembered token still expires', async () => {
    const key = await newKey('k3');
    published = [key.jwk];
    let now = Date.now();
    const verifier = createVerifier({ url, projectKey: PROJECT_KEY, clockToleranceS: 0, now: () => now });
    const token = await sign(key, {}, { expiresIn: 60 });
    await verifier.verify(token);
    now += 61_000;
    expect(await refusal(verifier.verify(token))).toBe('expired');
  });

  it('follows a rotation of the signing key: a token of the new key fetches the keys again', async () => {
    const old = await newKey('old');
    published = [old.jwk];
    jwksFetches = 0;
    const verifier = createVerifier({ url, projectKey: PROJECT_KEY, jwksCooldownMs: 0 });
    await verifier.verify(await sign(old));
    const next = await newKey('new');
    published = [next.jwk, old.jwk];
    expect(await verifier.verify(await sign(next))).toMatchObject({ sub: 'user-1' });
    expect(jwksFetches).toBe(2);
    expect(await verifier.verify(await sign(old))).toMatchObject({ sub: 'user-1' });
    expect(jwksFetches).toBe(2);
    // The old key withdrawn: once the cache is refreshed, its tokens stop working.
    published = [next.jwk];
    const fresh = createVerifier({ url, projectKey: PROJECT_KEY });
    expect(await refusal(fresh.verify(await sign(old)))).toBe('invalid');
  });

  it('tokens naming unknown keys fetch the keys at most once per cooldown', async () => {
    const key = await newKey('known');
    published = [key.jwk];
    jwksFetches = 0;
    const verifier = createVerifier({ url, projectKey: PROJECT_KEY });
    await verifier.verify(await sign(key));
    for (let i = 0; i < 10; i++) expect(await refusal(verifier.verify(await sign(await newKey(`made-up-${i}`))))).toBe('invalid');
    expect(jwksFetches).toBe(1);
  });
});
