import { describe, expect, it } from 'vitest';
import { isLoopbackRedirectPattern, matchesLoopbackRedirectPattern } from '../../shared/loopback-redirect.js';
import { isLoopbackAddress, isPlainlyLoopback } from '../../server/modules/ip-intel/public-fetch.js';
import { loadConfig } from '../../server/config.js';

/** The two loopback allowances of development projects (issue 32): redirect patterns, and loopback receivers. */

describe('loopback redirect patterns', () => {
  it('are http on localhost or 127.0.0.1 with * as the port and an exact path', () => {
    for (const pattern of ['http://localhost:*/callback', 'http://127.0.0.1:*/cb?app=1', 'http://localhost:*', 'http://localhost:*/']) expect(isLoopbackRedirectPattern(pattern), pattern).toBe(true);
    for (const value of ['https://localhost:*/cb', 'http://localhost:*cb', 'http://localhost:*/a b', 'http://localhost:*/cb#f', 'http://localhost:*/../x', 'http://a.localhost:*/cb', 'http://localhost:1*/cb', 'http://user@localhost:*/cb']) {
      expect(isLoopbackRedirectPattern(value), value).toBe(false);
    }
  });

  it('match a port from 1 to 65535 in place of *, and nothing else', () => {
    const pattern = 'http://localhost:*/callback';
    expect(matchesLoopbackRedirectPattern(pattern, 'http://localhost:1/callback')).toBe(true);
    expect(matchesLoopbackRedirectPattern('http://localhost:*', 'http://localhost:8080/')).toBe(true);
    for (const candidate of ['http://localhost/callback', 'http://localhost:/callback', 'http://localhost:080/callback', 'http://localhost:123456/callback', 'http://localhost:80a/callback', 'http://localhost:5173/callback/']) {
      expect(matchesLoopbackRedirectPattern(pattern, candidate), candidate).toBe(false);
    }
    expect(matchesLoopbackRedirectPattern('https://app.example/callback', 'https://app.example/callback')).toBe(false);
  });
});

describe('loopback addresses', () => {
  it('are 127.0.0.0/8 and ::1 (also written IPv4-mapped), not other private ranges nor 6to4 look-alikes', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '192.168.0.1', '169.254.169.254', 'fd00::1', '::', '0.0.0.0', '2002:7f00:1::', 'localhost', '128.0.0.1']) expect(isLoopbackAddress(address), address).toBe(false);
    expect(isPlainlyLoopback(new URL('http://localhost:3000/x'))).toBe(true);
    expect(isPlainlyLoopback(new URL('http://[::1]:3000/x'))).toBe(true);
    expect(isPlainlyLoopback(new URL('http://localhost.evil.com/x'))).toBe(false);
  });

  it("decide whether this server is a local install, by APP_URL's host", () => {
    const appOnLoopback = (APP_URL: string) => loadConfig({ APP_URL }, { allowWeakHashing: true }).appOnLoopback;
    expect(appOnLoopback('http://localhost:3000')).toBe(true);
    expect(appOnLoopback('http://127.0.0.1:3000')).toBe(true);
    expect(appOnLoopback('http://[::1]:3000')).toBe(true);
    expect(appOnLoopback('https://auth.example.com')).toBe(false);
    expect(appOnLoopback('http://10.0.0.5:3000')).toBe(false);
  });
});
