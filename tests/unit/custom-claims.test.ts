import { describe, expect, it } from 'vitest';
import { renderCustomClaims, validateCustomClaims, type ClaimsContext } from '../../server/modules/organizations/custom-claims.js';
import { accessTokenClaims, TOKEN_CLAIMS_BUDGET_BYTES } from '../../server/modules/organizations/token-claims.js';
import { AppError } from '../../server/errors.js';

const context: ClaimsContext = {
  user: { id: 'u1', email: 'ada@example.com', email_verified: true, first_name: 'Ada', last_name: null, public_metadata: { plan: 'pro', seats: 3, nested: { flag: true } } },
  org: { id: 'o1', slug: 'acme', name: 'Acme', role: 'org:admin', permissions: ['members:manage'], public_metadata: {} },
};

const render = (template: Record<string, unknown>) => renderCustomClaims(JSON.stringify(template), context);
const refusal = (template: Record<string, unknown>) => {
  try {
    validateCustomClaims(template);
  } catch (error) {
    if (error instanceof AppError) return `${error.code} ${error.detail}`;
    throw error;
  }
  return null;
};

describe('custom claims templates', () => {
  it('render text, keep the type of a lone value, and leave out what is missing', () => {
    expect(render({ plan: '{{ user.public_metadata.plan }}', seats: '{{user.public_metadata.seats}}', nested: '{{ user.public_metadata.nested }}', missing: '{{ user.public_metadata.none }}', label: '{{ org.name }} ({{ org.role }})', fixed: 7 })).toEqual({
      plan: 'pro',
      seats: 3,
      nested: { flag: true },
      label: 'Acme (org:admin)',
      fixed: 7,
    });
    expect(renderCustomClaims(JSON.stringify({ tenant: '{{ org.slug }}' }), { ...context, org: null })).toEqual({});
  });

  it('read only own properties: no prototype, constructor or process', () => {
    expect(render({ a: '{{ user.constructor }}', b: '{{ user.__proto__ }}', c: '{{ user.constructor.name }}x', d: '{{ user.toString }}y' })).toEqual({ c: 'x', d: 'y' });
    expect(refusal({ a: '{{ process.env.HOME }}' })).toBe('UNPROCESSABLE_CONTENT custom_claims.a: only user and org can be used, not process');
  });

  it('refuse file tags, unknown filters, reserved and malformed names, and oversized templates', () => {
    expect(refusal({ a: '{% include "secrets.txt" %}' })).toMatch(/^UNPROCESSABLE_CONTENT custom_claims\.a: /);
    expect(refusal({ a: '{% render "x" %}' })).toMatch(/^UNPROCESSABLE_CONTENT custom_claims\.a: /);
    expect(refusal({ a: '{{ user.email | shell }}' })).toMatch(/^UNPROCESSABLE_CONTENT custom_claims\.a: /);
    // No loops: a template's cost stays linear in its size.
    expect(refusal({ a: '{% for i in (1..1000) %}{% for j in (1..1000) %}x{% endfor %}{% endfor %}' })).toMatch(/^UNPROCESSABLE_CONTENT custom_claims\.a: /);
    expect(refusal({ exp: 1 })).toBe('UNPROCESSABLE_CONTENT custom_claims cannot set exp: it is a registered claim');
    expect(refusal({ 'bad name': 1 })).toBe('UNPROCESSABLE_CONTENT custom_claims: "bad name" is not a valid claim name');
    expect(refusal({ a: 'x'.repeat(5000) })).toBe('UNPROCESSABLE_CONTENT custom_claims must be at most 4096 bytes of JSON');
    expect(refusal(Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`c${i}`, i])))).toBe('UNPROCESSABLE_CONTENT custom_claims may hold at most 30 claims');
    expect(refusal({ plan: '{{ user.public_metadata.plan | upcase }}', tenant: '{{ org.slug }}' })).toBeNull();
  });

  it('never set registered claims, even from a template stored before a rule existed', () => {
    expect(render({ sub: 'mallory', iss: 'evil', plan: 'x' })).toEqual({ plan: 'x' });
  });
});

describe("a token's added claims", () => {
  const realm = (customClaims: string | null) => ({ projectId: 'p1', policy: { organizations: { selfService: false, maxPerUser: 10, customClaims } } }) as never;
  const user = (publicMetadata: unknown) => ({ id: 'u1', email: 'ada@example.com', is_verified: 1 as const, first_name: null, last_name: null, public_metadata: JSON.stringify(publicMetadata) });

  it('carry public metadata and custom claims while they fit the cookie budget, and leave out what does not', async () => {
    const db = {} as never;
    expect(await accessTokenClaims(db, realm(JSON.stringify({ plan: '{{ user.public_metadata.plan }}' })), user({ plan: 'pro' }), null)).toEqual({ plan: 'pro', public_metadata: { plan: 'pro' } });
    const large = { blob: 'x'.repeat(TOKEN_CLAIMS_BUDGET_BYTES) };
    expect(await accessTokenClaims(db, realm(JSON.stringify({ plan: 'team' })), user(large), null)).toEqual({ plan: 'team' });
    expect(await accessTokenClaims(db, { projectId: null, policy: {} } as never, user({ plan: 'pro' }), null)).toEqual({});
  });
});
