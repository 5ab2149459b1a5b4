import { afterAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/** Which address the server records for a client behind proxies, by TRUST_PROXY. */
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function recordedAddress(trustProxy: string, forwardedFor: string, socket = '127.0.0.1'): Promise<string | null> {
  const t = await createTestApp({ env: { TRUST_PROXY: trustProxy } });
  apps.push(t);
  const email = uniqueEmail('xff');
  await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: socket, headers: { 'x-forwarded-for': forwardedFor } });
  const row = await t.db.selectFrom('login_attempts').select('ip_address').where('email', '=', email).executeTakeFirstOrThrow();
  return row.ip_address;
}

describe('TRUST_PROXY', () => {
  it('on: exactly one proxy hop is trusted, so a client cannot pick its own address by prepending to X-Forwarded-For', async () => {
    expect(await recordedAddress('on', '6.6.6.6, 9.9.9.9')).toBe('9.9.9.9');
  });

  it('a list of proxy addresses or CIDRs: the right-most address that is not a trusted proxy', async () => {
    expect(await recordedAddress('127.0.0.1/8', '6.6.6.6, 9.9.9.9')).toBe('9.9.9.9');
    expect(await recordedAddress('127.0.0.1/8, 10.0.0.0/8', '6.6.6.6, 9.9.9.9, 10.1.2.3')).toBe('9.9.9.9');
  });

  it('a number of hops: that many proxies from the socket inwards', async () => {
    expect(await recordedAddress('2', '6.6.6.6, 9.9.9.9, 10.1.2.3')).toBe('9.9.9.9');
  });

  it('an entry that is not an IP address is ignored: the socket address is recorded', async () => {
    expect(await recordedAddress('on', 'hello')).toBe('127.0.0.1');
  });

  it('off (the default): X-Forwarded-For is not believed at all', async () => {
    expect(await recordedAddress('off', '6.6.6.6, 9.9.9.9', '203.0.113.77')).toBe('203.0.113.77');
  });
});
