import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Deps } from '../../server/deps.js';
import { openApiPath, type OpenApiDocument } from '../../server/openapi/document.js';
import { registerErrorHandling } from '../../server/rest/error-handler.js';
import { mountRoutes } from '../../server/rest/mount.js';
import { ANYONE, defineRoute, successStatus } from '../../server/rest/route.js';
import { REST_ROUTES } from '../../server/routes.js';
import { UserSchema } from '../../shared/schemas/user.js';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

const PACKAGE_VERSION: string = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

let t: TestApp;
let document: OpenApiDocument;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.call('GET', '/api/openapi.json');
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(() => t.close());

describe('GET /api/openapi.json', () => {
  it('is public JSON, cacheable for five minutes, and the same document each time', async () => {
    const response = await t.call('GET', '/api/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.json()).toEqual(document);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.info).toMatchObject({ title: 'AuthPlatform API', version: PACKAGE_VERSION });
    expect(document.servers).toEqual([{ url: '/' }]);
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
  });
});

describe('the document and the served routes', () => {
  const documented = () =>
    Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`));

  it('documents exactly the declared routes, and the app serves each of them', () => {
    const declared = REST_ROUTES.map((route) => `${route.method} ${openApiPath(route.url)}`);
    expect(declared.length).toBeGreaterThan(50);
    expect([...documented()].sort()).toEqual([...declared].sort());
    for (const route of REST_ROUTES) expect(t.app.hasRoute({ method: route.method as HTTPMethods, url: route.url }), `${route.method} ${route.url}`).toBe(true);
  });

  it("lists the hosted pages' browser API under its own tag, with the project key as a path parameter", () => {
    const login = document.paths['/hosted/{project_key}/api/v1/auth/login']!.post!;
    expect(login.operationId).toBe('hostedLogIn');
    expect(login.tags).toEqual(['Hosted pages']);
    expect(login.parameters).toContainEqual(expect.objectContaining({ name: 'project_key', in: 'path', required: true }));
    expect(document.paths['/hosted/{project_key}/api/v1/profile']!.get!.security).toEqual([{ hostedCookie: [] }, { bearerAuth: [] }]);
  });

  it('refuses to start with a REST path registered outside the declared routes, so none can go undocumented', async () => {
    const app = Fastify({ logger: false });
    await mountRoutes(app, {} as Deps, []);
    expect(() => app.get('/api/v1/undeclared', async () => ({}))).toThrow(/not declared/);
    expect(() => app.post('/public/api/v1/undeclared', async () => ({}))).toThrow(/not declared/);
    // Other paths (tRPC, the client) are not REST routes.
    expect(() => app.get('/trpc/anything', async () => ({}))).not.toThrow();
    await app.close();
  });
});

describe('schemas in the document', () => {
  it("describes sign-up's body from SignUpInputSchema, with its required fields", () => {
    const body = document.paths['/api/v1/auth/signup']!.post!.requestBody!;
    expect(body.required).toBe(true);
    expect(body.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SignUpInput' });
    const signUp = document.components.schemas.SignUpInput as { required: string[]; properties: Record<string, Record<string, unknown>> };
    expect([...signUp.required].sort()).toEqual(['email', 'password']);
    expect(signUp.properties.email).toMatchObject({ type: 'string', format: 'email', maxLength: 254 });
    expect(signUp.properties.password).toMatchObject({ type: 'string', minLength: 8 });
    // Optional inputs accept null, as the schema does before its transform.
    expect(signUp.properties.first_name).toEqual({ anyOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }] });
  });

  it('answers every error with ErrorResponse {detail} (and, on a step-up refusal, step_up_required and step_up_methods)', () => {
    expect(document.components.schemas.ErrorResponse).toMatchObject({
      type: 'object',
      properties: {
        detail: { type: 'string' },
        step_up_required: { type: 'boolean', const: true },
        step_up_methods: { type: 'array', items: { type: 'string', enum: ['password', 'totp', 'passkey', 'email'] } },
      },
      required: ['detail'],
      additionalProperties: false,
    });
    let errors = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
          if (Number(status) < 400 || Number(status) >= 500) continue;
          errors += 1;
          expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
        }
      }
    }
    expect(errors).toBeGreaterThan(100);
    expect(document.paths['/api/v1/auth/login']!.post!.responses['429']!.headers).toHaveProperty('Retry-After');
    expect(Object.keys(document.paths['/api/v1/admin/users/{id}']!.get!.responses)).toEqual(['200', '401', '403', '404', '422']);
  });

  it('describes query and path parameters from the schemas that parse them', () => {
    const parameters = document.paths['/api/v1/projects/{id}/users']!.get!.parameters!;
    expect(parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1_000_000 } },
      { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
      { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
      { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['active', 'inactive'] } },
      { name: 'verified', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
      { name: 'from', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'to', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect(document.paths['/public/api/v1/auth/login']!.post!.security).toEqual([{ apiKeyAuth: [] }]);
    expect(document.paths['/public/api/v1/profile']!.get!.security).toEqual([{ apiKeyAuth: [], bearerAuth: [] }]);
    expect(document.paths['/api/v1/auth/me']!.get!.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('answers match the documented schemas', () => {
  /** Parses with the operation's response schema; a plain object schema must also name every field the answer has. */
  function expectDocumented(method: string, path: string, status: number, body: unknown) {
    const route = REST_ROUTES.find((r) => r.method.toLowerCase() === method && openApiPath(r.url) === path);
    expect(route, `${method} ${path}`).toBeDefined();
    const schema = route!.response[status as 200 | 201 | 503];
    expect(schema, `${method} ${path} ${status}`).toBeDefined();
    const parsed = schema!.safeParse(body);
    expect(parsed.error?.issues, `${method} ${path}`).toBeUndefined();
    if (schema instanceof z.ZodObject && !(schema._zod.def.catchall instanceof z.ZodUnknown)) {
      expect(Object.keys(body as object).sort(), `${method} ${path}: undocumented fields`).toEqual(Object.keys(schema.shape).sort());
    }
  }

  it('for a sign-up, login, me and project round trip', async () => {
    const email = uniqueEmail('openapi');
    const signup = await t.call('POST', '/api/v1/auth/signup', { body: { email, password: 'Correct-Horse-42' } });
    expect(signup.statusCode).toBe(201);
    expectDocumented('post', '/api/v1/auth/signup', 201, signup.json());

    const tokens = await t.signUpAndLogIn(uniqueEmail('openapi'));
    const login = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
    expectDocumented('post', '/api/v1/auth/refresh', 200, login.json());
    const token = login.json().access_token as string;
    expectDocumented('get', '/api/v1/auth/me', 200, (await t.call('GET', '/api/v1/auth/me', { token })).json());

    const project = await t.call('POST', '/api/v1/projects', { token, body: { name: 'Docs' } });
    expect(project.statusCode).toBe(201);
    expectDocumented('post', '/api/v1/projects', 201, project.json());
    const id = project.json().id as string;
    expectDocumented('get', '/api/v1/projects', 200, (await t.call('GET', '/api/v1/projects', { token })).json());
    const key = await t.call('POST', `/api/v1/projects/${id}/api-keys`, { token, body: { name: 'ci' } });
    expectDocumented('post', '/api/v1/projects/{id}/api-keys', 201, key.json());
    expectDocumented('get', '/api/v1/projects/{id}/api-keys', 200, (await t.call('GET', `/api/v1/projects/${id}/api-keys`, { token })).json());
    expectDocumented('get', '/api/v1/projects/{id}/users', 200, (await t.call('GET', `/api/v1/projects/${id}/users`, { token })).json());
    expectDocumented('get', '/api/v1/dashboard/stats', 200, (await t.call('GET', '/api/v1/dashboard/stats', { token })).json());

    const publicLogin = await t.call('POST', '/public/api/v1/auth/login', {
      headers: { 'x-api-key': key.json().secret },
      body: { email: 'nobody@example.com', password: 'Correct-Horse-42' },
    });
    expect(publicLogin.statusCode).toBe(401);
    expect(Object.keys(publicLogin.json())).toEqual(['detail']);
  });

  it('for health, the signing keys and the captcha config', async () => {
    expectDocumented('get', '/health', 200, (await t.call('GET', '/health')).json());
    expectDocumented('get', '/.well-known/jwks.json', 200, (await t.call('GET', '/.well-known/jwks.json')).json());
    expectDocumented('get', '/api/v1/captcha/config', 200, (await t.call('GET', '/api/v1/captcha/config')).json());
    expectDocumented('get', '/api/openapi.json', 200, document);
  });
});

describe('answers go out through their documented schema', () => {
  const build = async (answer: unknown) => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    const route = defineRoute({
      method: 'GET',
      url: '/api/v1/auth/me',
      access: ANYONE,
      response: { 200: UserSchema },
      doc: { operationId: 'getMe', tag: 'Auth', summary: 'me' },
      handler: async () => answer as z.input<typeof UserSchema>,
    });
    expect(successStatus(route)).toBe(200);
    await mountRoutes(app, { platform: {} } as Deps, [route]);
    await app.ready();
    return app;
  };
  const user = {
    id: 'u1',
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: null,
    website_url: null,
    role: 'user',
    is_active: true,
    is_verified: true,
    login_notifications: true,
    email_notifications: true,
    notify_security_alerts: true,
    notify_product_updates: false,
    notify_marketing: false,
    mfa_enabled: false,
    session_idle_timeout_minutes: null,
    locale: null,
    created_at: '2026-01-01T00:00:00.000Z',
    last_login: null,
  };

  it('drops fields the schema does not name, so a stray column never reaches a caller', async () => {
    const app = await build({ ...user, password_hash: '$2b$12$secret', project_id: 'p1' });
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(UserSchema.parse(user));
    expect(res.body).not.toContain('password_hash');
    await app.close();
  });

  it('refuses to send an answer that breaks its contract: 500 {detail}, not a wrong shape', async () => {
    const app = await build({ ...user, email: 42 });
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'Internal Server Error' });
    await app.close();
  });
});
