import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuthProvider, Protect, SignedIn, SignedOut, SignInButton, UserButton } from '../src/index.js';

describe('server rendering', () => {
  it('imports and renders to a string with no window: everything waits for the browser (loading)', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const html = renderToString(
      h(
        AuthProvider,
        { issuer: 'https://auth.example.com/projects/pk_shop', clientId: 'pk_shop' },
        h(SignedIn, null, h('p', null, 'members area')),
        h(SignedOut, null, h('p', null, 'welcome, stranger')),
        h(Protect, { permission: 'invoices:write' }, h('p', null, 'write invoices')),
        h(UserButton),
        h(SignInButton),
      ),
    );
    expect(html).toContain('Sign in</button>');
    expect(html).toContain('.ap-button{'); // the stylesheet is rendered with the markup
    for (const hidden of ['members area', 'welcome, stranger', 'write invoices', 'Open user menu']) expect(html).not.toContain(hidden);
  });
});
