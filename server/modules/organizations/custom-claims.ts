import { Liquid, type Template } from 'liquidjs';
import { LRUCache } from 'lru-cache';
import { CUSTOM_CLAIMS_MAX_BYTES, MAX_CUSTOM_CLAIMS, METADATA_MAX_BYTES, RESERVED_CLAIMS } from '../../../shared/schemas/organizations.js';
import { AppError } from '../../errors.js';

/**
 * A project's custom claims: a JSON object whose strings are Liquid templates over `user` and `org`
 * (`{"plan": "{{ user.public_metadata.plan }}", "tenant": "{{ org.slug }}"}`). Liquid runs no code:
 * only own properties are read, file tags are removed, and parsing and rendering are bounded. A string
 * that is one lone output (`"{{ user.public_metadata.seats }}"`) keeps its value's JSON type.
 */

const engine = new Liquid({ ownPropertyOnly: true, strictFilters: true, parseLimit: CUSTOM_CLAIMS_MAX_BYTES, renderLimit: 1000, memoryLimit: 64 * 1024, cache: false });
// No tag that reads files (include, render, layout) and no loop: a template's cost stays linear in its
// size (memoryLimit bounds what filters build), so issuing a token never waits on one.
for (const tag of ['include', 'render', 'layout', 'block', 'for', 'tablerow', 'cycle']) delete (engine.tags as Record<string, unknown>)[tag];

const ROOTS = ['user', 'org'];
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_:.-]{0,63}$/;
const LONE_OUTPUT = /^\{\{\s*((?:user|org)(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)\s*\}\}$/;

type Compiled = { kind: 'value'; value: unknown } | { kind: 'path'; path: string[] } | { kind: 'text'; template: Template[] } | { kind: 'object'; entries: [string, Compiled][] } | { kind: 'list'; items: Compiled[] };

/** What a template reads. */
export interface ClaimsContext {
  user: { id: string; email: string; email_verified: boolean; first_name: string | null; last_name: string | null; public_metadata: Record<string, unknown> };
  org: { id: string; slug: string; name: string; role: string; permissions: string[]; public_metadata: Record<string, unknown> } | null;
}

function compile(value: unknown, where: string): Compiled {
  if (typeof value === 'string') {
    const lone = LONE_OUTPUT.exec(value.trim());
    if (lone) return { kind: 'path', path: lone[1]!.split('.') };
    if (!value.includes('{{') && !value.includes('{%')) return { kind: 'value', value };
    let template: Template[];
    try {
      template = engine.parse(value);
    } catch (error) {
      throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims.${where}: ${firstLine(error)}`);
    }
    const outside = engine.globalVariableSegmentsSync(template).find((segments) => !ROOTS.includes(String(segments[0])));
    if (outside) throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims.${where}: only user and org can be used, not ${String(outside[0])}`);
    return { kind: 'text', template };
  }
  if (Array.isArray(value)) return { kind: 'list', items: value.map((item, index) => compile(item, `${where}[${index}]`)) };
  if (value !== null && typeof value === 'object') return { kind: 'object', entries: Object.entries(value).map(([key, item]) => [key, compile(item, where ? `${where}.${key}` : key)]) };
  return { kind: 'value', value };
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0]! : 'invalid template');

/** Checks a template as it is saved: 422 with the claim at fault for a reserved or malformed name, a bad template or a template too large. */
export function validateCustomClaims(template: Record<string, unknown>): void {
  const bytes = Buffer.byteLength(JSON.stringify(template));
  if (bytes > CUSTOM_CLAIMS_MAX_BYTES) throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims must be at most ${CUSTOM_CLAIMS_MAX_BYTES} bytes of JSON`);
  const names = Object.keys(template);
  if (names.length > MAX_CUSTOM_CLAIMS) throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims may hold at most ${MAX_CUSTOM_CLAIMS} claims`);
  for (const name of names) {
    if ((RESERVED_CLAIMS as readonly string[]).includes(name)) throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims cannot set ${name}: it is a registered claim`);
    if (!CLAIM_NAME.test(name)) throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims: ${JSON.stringify(name)} is not a valid claim name`);
  }
  const compiled = compile(template, '');
  // A trial run with an empty user and no organization finds what only fails when rendering.
  try {
    render(compiled, { user: { id: '', email: '', email_verified: false, first_name: null, last_name: null, public_metadata: {} }, org: null });
  } catch (error) {
    throw new AppError('UNPROCESSABLE_CONTENT', `custom_claims: ${firstLine(error)}`);
  }
}

function lookup(context: ClaimsContext, path: string[]): unknown {
  let value: unknown = context;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function render(compiled: Compiled, context: ClaimsContext): unknown {
  switch (compiled.kind) {
    case 'value':
      return compiled.value;
    case 'path':
      return lookup(context, compiled.path);
    case 'text':
      return engine.renderSync(compiled.template, context);
    case 'list':
      return compiled.items.map((item) => render(item, context) ?? null);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, item] of compiled.entries) {
        const value = render(item, context);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
  }
}

const compiledTemplates = new LRUCache<string, Compiled>({ max: 1000 });

/**
 * The claims a stored template gives for this user and organization; null when rendering fails or
 * gives more than 8 KB (the token is issued without them: a template never stops a sign-in).
 */
export function renderCustomClaims(templateJson: string, context: ClaimsContext): Record<string, unknown> | null {
  try {
    let compiled = compiledTemplates.get(templateJson);
    if (!compiled) {
      compiled = compile(JSON.parse(templateJson) as unknown, '');
      compiledTemplates.set(templateJson, compiled);
    }
    const claims = render(compiled, context) as Record<string, unknown>;
    for (const name of RESERVED_CLAIMS) delete claims[name];
    return Buffer.byteLength(JSON.stringify(claims)) <= METADATA_MAX_BYTES ? claims : null;
  } catch {
    return null;
  }
}
