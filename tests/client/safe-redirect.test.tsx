import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { safeRedirectPath } from '../../shared/safe-redirect';

/** The rule the server and the client share for every redirect target someone else wrote. */

const ORIGIN = 'https://auth.example.com';
const resolved = (path: string) => new URL(path, ORIGIN);

describe('safeRedirectPath', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/projects?page=2#keys', '/projects?page=2#keys'],
    [`${ORIGIN}/settings`, '/settings'],
    ['/a/./b/../c', '/a/c'],
    ['/projects/%C3%A9t%C3%A9', '/projects/%C3%A9t%C3%A9'],
    ['/search?q=a+b', '/search?q=a+b'],
  ])('keeps %j as %j', (target, expected) => {
    expect(safeRedirectPath(target, ORIGIN)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '///evil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/%2509/evil.example',
    '/%252509/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/\u0000/evil.example',
    '/%00',
    '/\\evil.example',
    '/%5Cevil.example',
    '\\/evil.example',
    ' //evil.example',
    '\u00a0//evil.example',
    '\ufeff//evil.example',
    '/.//evil.example',
    '/%2e//evil.example',
    '/x/..//evil.example',
    'https://evil.example',
    'http://auth.example.com/',
    'https://auth.example.com:8443/',
    'http:evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,x',
    '/search?q=a%20b',
    '/%C3%09',
    '',
  ])('refuses %j', (target) => {
    expect(safeRedirectPath(target, ORIGIN)).toBeNull();
  });

  it('refuses what is not text', () => {
    for (const target of [null, undefined, 42, { toString: () => '/dashboard' }, ['/dashboard']]) expect(safeRedirectPath(target, ORIGIN)).toBeNull();
  });

  it('keeps a path within the given pages only, after resolving dot segments', () => {
    const within = '/hosted/pk_a/';
    expect(safeRedirectPath('/hosted/pk_a/account', ORIGIN, within)).toBe('/hosted/pk_a/account');
    expect(safeRedirectPath('/hosted/pk_a/../pk_b/account', ORIGIN, within)).toBeNull();
    expect(safeRedirectPath('/hosted/pk_a/%2E%2E/pk_b/account', ORIGIN, within)).toBeNull();
    expect(safeRedirectPath('/hosted/pk_ab/account', ORIGIN, within)).toBeNull();
    expect(safeRedirectPath('/dashboard', ORIGIN, within)).toBeNull();
  });

  describe('properties', () => {
    /** Text of every kind: any Unicode, with the characters parsers treat specially over-represented. */
    const tricky = fc.constantFrom('/', '\\', '.', ':', '%', '%2', '%25', '%09', '%0a', '%2f', '%5c', '%2e', '\t', '\n', '\r', ' ', '\u0000', '\u00a0', '@', '?', '#', 'evil.example', 'https:', 'javascript:');
    const anyTarget = fc.oneof(fc.string({ unit: 'grapheme' }), fc.array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 12 }).map((parts) => parts.join('')), fc.webUrl(), fc.webPath());

    it('answers null or a path that a browser resolves to our origin, free of anything a parser drops, and stable', () => {
      fc.assert(
        fc.property(anyTarget, (target) => {
          const path = safeRedirectPath(target, ORIGIN);
          if (path === null) return;
          expect(path.startsWith('/')).toBe(true);
          expect(path.startsWith('//')).toBe(false);
          expect(path).not.toMatch(/[\u0000-\u0020\u007f-\u009f\\]/u);
          expect(resolved(path).origin).toBe(ORIGIN);
          expect(safeRedirectPath(path, ORIGIN)).toBe(path);
        }),
        { numRuns: 5000 },
      );
    });

    it('never leads to another host, however slashes, dots, controls and encodings are combined', () => {
      const piece = fc.constantFrom('/', '\\', '//', '.', '..', '%2e', '%2f', '%5c', '%09', '%0d%0a', '\t', '\n', ' ', '%20', '%2509', ':');
      const attack = fc
        .tuple(fc.constantFrom('', 'https:', 'http:', '//', ' '), fc.array(piece, { maxLength: 6 }), fc.constantFrom('evil.example', 'evil.example/x', '@evil.example'))
        .map(([scheme, pieces, host]) => `${scheme}${pieces.join('')}${host}`);
      fc.assert(
        fc.property(attack, (target) => {
          const path = safeRedirectPath(target, ORIGIN);
          if (path !== null) expect(resolved(path).host).toBe('auth.example.com');
        }),
        { numRuns: 5000 },
      );
    });

    it('keeps every plain path of the site as it is', () => {
      const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,12}$/);
      const plainPath = fc
        .tuple(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.option(fc.stringMatching(/^[A-Za-z0-9=&_-]{1,20}$/), { nil: undefined }))
        .map(([segments, query]) => `/${segments.join('/')}${query ? `?${query}` : ''}`);
      fc.assert(
        fc.property(plainPath, (path) => {
          expect(safeRedirectPath(path, ORIGIN)).toBe(path);
        }),
      );
    });

    it('refuses every address of another origin', () => {
      fc.assert(
        fc.property(fc.webUrl(), (url) => {
          fc.pre(new URL(url).origin !== ORIGIN);
          expect(safeRedirectPath(url, ORIGIN)).toBeNull();
        }),
      );
    });
  });
});
