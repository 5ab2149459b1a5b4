import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicFetch, NonPublicAddressError } from '../../server/modules/ip-intel/public-fetch.js';

/** The fetch a project's provider is reached with: public addresses only, by literal or by name. */
let server: http.Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = http.createServer((_request, response) => {
    hits += 1;
    response.end('inside');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createPublicFetch', () => {
  const publicFetch = createPublicFetch();

  it('refuses loopback, private and link-local address literals without connecting', async () => {
    for (const host of ['127.0.0.1', '10.0.0.1', '192.168.1.1', '169.254.169.254', '[::1]', '[fd00::1]', '0.0.0.0']) {
      await expect(publicFetch(`http://${host}:${port}/`)).rejects.toBeInstanceOf(NonPublicAddressError);
    }
    expect(hits).toBe(0);
  });

  it('refuses a name that resolves to a non-public address', async () => {
    const failure = await publicFetch(`http://localhost:${port}/`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error & { cause?: unknown }).cause ?? failure)).toMatch(/not a public address/);
    expect(hits).toBe(0);
  });
});
