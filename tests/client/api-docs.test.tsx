import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderApp, watchTimers } from './utils';
import { COPIED_HINT_MS } from '../../shared/constants';
import { buildReference, type OpenApiDocument } from '../../client/components/api-docs/openapi';

const DOC: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Auth platform API', version: '1.2.0' },
  servers: [{ url: 'http://localhost:3000' }],
  tags: [
    { name: 'Public API', description: 'Called by your backend with X-API-Key.' },
    { name: 'Projects' },
  ],
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    schemas: {
      Credentials: {
        type: 'object',
        required: ['email', 'password'],
        properties: {
          email: { type: 'string', format: 'email', description: 'The end user’s address' },
          password: { type: 'string', minLength: 1, maxLength: 1024 },
        },
      },
      Error: { type: 'object', properties: { detail: { type: 'string' } } },
    },
  },
  paths: {
    '/public/api/v1/auth/login': {
      post: {
        tags: ['Public API'],
        summary: 'Sign an end user in',
        security: [{ apiKey: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { allOf: [{ $ref: '#/components/schemas/Credentials' }, { type: 'object', properties: { device_fingerprint: { type: ['string', 'null'] } } }] },
            },
          },
        },
        responses: {
          '200': { description: 'Tokens and the user' },
          '401': { description: 'Invalid API key, or incorrect email or password' },
        },
      },
    },
    '/api/v1/projects/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { tags: ['Projects'], summary: 'One project', security: [{ bearer: [] }], responses: { '200': { description: 'The project' }, '404': { description: 'Project not found' } } },
      delete: { tags: ['Projects'], summary: 'Delete a project', security: [{ bearer: [] }], responses: { '200': { description: 'Deleted' } } },
    },
    '/health': { get: { summary: 'Liveness', security: [], responses: { '200': { description: 'OK' } } } },
  },
};

function serve(doc: unknown, status = 200) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    if (String(input) !== '/api/openapi.json') throw new Error(`unexpected fetch ${String(input)}`);
    return new Response(JSON.stringify(doc), { status, headers: { 'content-type': 'application/json' } });
  });
}

describe('ApiDocsPage', () => {
  it('keeps the public endpoints and the PowerShell scripts (the README\'s quick start), and adds the SDK and a copyable curl example', async () => {
    const timers = watchTimers();
    serve({ detail: 'Not found' }, 404);
    const { user } = renderApp('/api-docs');
    expect(await screen.findByRole('heading', { level: 1, name: 'API documentation' })).toBeTruthy();
    const publicEndpoints = within(screen.getByRole('region', { name: 'Public endpoints' }));
    for (const path of ['signup', 'login', 'logout', 'verify-email', 'forgot-password', 'reset-password']) {
      expect(publicEndpoints.getByText(`/public/api/v1/auth/${path}`)).toBeTruthy();
    }
    expect(publicEndpoints.getAllByText('/public/api/v1/profile')).toHaveLength(2);
    expect(screen.getByRole('region', { name: 'Start the server' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Start in development mode' })).toBeTruthy();
    // The scripts are the README's quick start: npm start builds the client itself.
    const start = within(screen.getByRole('region', { name: 'Start the server' })).getByText(/npm ci/).textContent ?? '';
    expect(start).toContain('npm start');
    expect(start).not.toContain('npm run build');
    expect(start).not.toMatch(/^\$env:SMTP_URL/m);

    const sdk = within(screen.getByRole('region', { name: 'The SDK' }));
    expect(sdk.getByText('npm run example')).toBeTruthy();
    await user.click(sdk.getByRole('button', { name: 'Copy The SDK script' }));
    const sdkCode = await navigator.clipboard.readText();
    expect(sdkCode).toContain("from '@authplatform/api'");
    expect(sdkCode).toContain(`createPublicApiClient({ appUrl: '${window.location.origin}'`);
    expect(sdkCode).toContain('verifyAccessToken(accessToken');

    const curl = within(screen.getByRole('region', { name: 'Sign up and log in an end user' }));
    await user.click(curl.getByRole('button', { name: 'Copy Sign up and log in an end user script' }));
    const copied = await navigator.clipboard.readText();
    expect(copied).toContain(`BASE="${window.location.origin}/public/api/v1"`);
    expect(copied).toContain('curl -s -X POST "$BASE/auth/signup"');
    expect(copied).toContain('curl -s -X POST "$BASE/auth/login"');
    expect(copied).toContain('X-API-Key: $API_KEY');
    expect(await curl.findByText('Copied!')).toBeTruthy();
    timers.fire(COPIED_HINT_MS);
    expect(curl.queryByText('Copied!')).toBeNull();

    // No OpenAPI document on this server: a friendly note instead of the reference.
    expect(await screen.findByText('The full reference is not available on this server yet')).toBeTruthy();
  });

  it('renders the OpenAPI document grouped by tag, with auth, body fields and responses', async () => {
    serve(DOC);
    const { user } = renderApp('/api-docs');
    const publicGroup = within(await screen.findByRole('region', { name: 'Public API endpoints' }));
    expect(publicGroup.getByText('Called by your backend with X-API-Key.')).toBeTruthy();
    await user.click(publicGroup.getByRole('button', { name: 'POST /public/api/v1/auth/login' }));
    expect(publicGroup.getByText('Sign an end user in')).toBeTruthy();
    expect(publicGroup.getByText('X-API-Key header')).toBeTruthy();
    expect(publicGroup.getByText('email')).toBeTruthy();
    expect(publicGroup.getByText('string (email)')).toBeTruthy();
    expect(publicGroup.getByText('device_fingerprint')).toBeTruthy();
    expect(publicGroup.getByText('string | null')).toBeTruthy();
    expect(publicGroup.getByText('Invalid API key, or incorrect email or password')).toBeTruthy();
    expect(publicGroup.getAllByLabelText('required')).toHaveLength(2);

    const projects = within(screen.getByRole('region', { name: 'Projects endpoints' }));
    expect(projects.getByRole('button', { name: 'GET /api/v1/projects/{id}' })).toBeTruthy();
    expect(projects.getByRole('button', { name: 'DELETE /api/v1/projects/{id}' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Other endpoints' })).toBeTruthy();
    expect(screen.getByText(/Auth platform API · version 1\.2\.0 · 4 endpoints/)).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Filter endpoints' }), 'delete');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Public API endpoints' })).toBeNull());
    expect(screen.getByRole('button', { name: 'DELETE /api/v1/projects/{id}' })).toBeTruthy();
  });

  it('buildReference resolves $refs and allOf, path-level parameters and open endpoints', () => {
    const reference = buildReference(DOC);
    expect(reference.groups.map((g) => g.tag)).toEqual(['Public API', 'Projects', 'Other']);
    const get = reference.groups[1]!.operations[0]!;
    expect(get).toMatchObject({ method: 'GET', path: '/api/v1/projects/{id}', auth: ['Bearer JWT'] });
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, type: 'string', description: undefined }]);
    expect(reference.groups[2]!.operations[0]!.auth).toEqual(['None']);
    const login = reference.groups[0]!.operations[0]!;
    expect(login.body?.fields.map((f) => [f.name, f.required])).toEqual([
      ['email', true],
      ['password', true],
      ['device_fingerprint', false],
    ]);
  });
});
