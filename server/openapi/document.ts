import { z } from 'zod';
import * as sharedSchemas from '../../shared/schemas/index.js';
import { onProjectTeam, successStatus, TAGS, UnvalidatedParam, type Access, type AnyRoute, type ErrorStatus } from '../rest/route.js';
import * as documentSchemas from './schemas.js';

/**
 * Builds the OpenAPI 3.1 document from the declared REST routes and the zod schemas they validate with,
 * through zod's own JSON Schema (2020-12) output: request schemas as the client writes them
 * (`io: 'input'`, before transforms and defaults), answers as the server sends them (`io: 'output'`).
 * Object schemas exported from shared/schemas or ./schemas.ts become named components
 * (export name less `Schema`); everything else is inlined.
 */

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema }[];
  /** JSON always; a streamed body (route.streamedBody) lists its other types too. */
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } & Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; headers?: Record<string, JsonSchema>; content?: Record<string, { schema: JsonSchema }> }>;
}

const COMPONENTS = '#/components/schemas/';
const ERROR_RESPONSE = 'ErrorResponse';

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Bad request: malformed JSON, or a token, captcha or current password that is not right',
  401: 'Missing, invalid or expired credentials',
  403: 'Refused: cross-origin request, missing role, unverified e-mail, inactive account or project, blocked device or network',
  404: 'Not found',
  409: 'Conflict with the current state (e.g. a limit is reached)',
  413: 'Request body larger than 64 KiB',
  415: 'Content-Type must be application/json',
  422: 'Invalid input; the detail names the first broken rule',
  429: 'Too many requests; Retry-After says in how many seconds to try again',
};

/** Who may call, as OpenAPI security requirements (none: anyone, no token read). */
function securityOf({ realm, session }: Access): Record<string, string[]>[] | undefined {
  switch (realm) {
    case 'platform':
      return session === 'none' ? undefined : session === 'optional' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
    case 'apiKey':
      return session === 'none'
        ? [{ apiKeyAuth: [] }]
        : session === 'optional'
          ? [{ apiKeyAuth: [], bearerAuth: [] }, { apiKeyAuth: [] }]
          : [{ apiKeyAuth: [], bearerAuth: [] }];
    case 'hosted':
      // The hosted pages' browser API: the signed-in end user's cookie (or a Bearer header); optional sessions are not documented there.
      return session === 'required' ? [{ hostedCookie: [] }, { bearerAuth: [] }] : undefined;
    case 'portal':
      return [{ portalCookie: [] }];
  }
}

const DESCRIPTION = [
  'The REST API of AuthPlatform: `/api/v1` for developers (their account, projects, API keys and monitoring; admins also the platform-wide admin area)',
  "and `/public/api/v1`, the end-user API a developer's own backend calls with its project's key in `X-API-Key`.",
  '',
  'Every error answers `{"detail": "…"}` with its status. State-changing requests must be JSON (`Content-Type: application/json`), and,',
  'when a browser says where they come from, same-origin. On `/api/v1`, the access token may also come from the HttpOnly cookie that sign-in sets.',
  '',
  'Any operation may answer 503 `{"detail": "Service temporarily unavailable"}` with `Retry-After` (seconds) while the database cannot serve it',
  '(a connection being replaced, a restart or failover, a lock held too long); send the request again after that many seconds.',
].join('\n');

/** Object schemas exported from the schema modules, by the name their component gets. */
function namedObjectSchemas(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  for (const module of [sharedSchemas, documentSchemas]) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!(value instanceof z.ZodObject) || !exportName.endsWith('Schema') || names.has(value)) continue;
      const name = exportName.slice(0, -'Schema'.length);
      if (taken.has(name)) throw new Error(`Two schemas would be the component ${name}`);
      names.set(value, name);
      taken.add(name);
    }
  }
  return names;
}

/** zod's JSON Schema (2020-12) options for one side. */
function jsonOptions(io: Io): z.core.ToJSONSchemaParams {
  return {
    io,
    target: 'draft-2020-12',
    override(ctx) {
      // A text trimmed and then checked as, e.g., an e-mail address (EmailSchema): the input side keeps the format.
      const schema = ctx.zodSchema;
      if (io === 'input' && schema instanceof z.ZodPipe && schema.out instanceof z.ZodStringFormat && ctx.jsonSchema.type === 'string') {
        ctx.jsonSchema.format ??= schema.out.format ?? undefined;
      }
    },
  };
}

function toJson(schema: z.ZodType, io: Io): JsonSchema {
  return withoutMeta(z.toJSONSchema(schema, jsonOptions(io)) as JsonSchema);
}

function representable(schema: z.ZodType, io: Io): boolean {
  try {
    toJson(schema, io);
    return true;
  } catch {
    return false;
  }
}

function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** Every named component for one side, cross-referenced with $ref. Schemas that cannot be one on that side are left out. */
function componentsFor(io: Io, names: Map<z.ZodType, string>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names) if (representable(schema, io)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { ...jsonOptions(io), uri: (id) => COMPONENTS + id });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutMeta(schema as JsonSchema)]));
}

function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENTS)) found.add(inner.slice(COMPONENTS.length));
      else refsIn(inner, found);
    }
  }
  return found;
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** Fastify's /projects/:id is OpenAPI's /projects/{id}. */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

function automaticErrors(route: AnyRoute): ErrorStatus[] {
  const statuses: ErrorStatus[] = [];
  // The request guard and body parser: malformed JSON, cross-origin, oversized, not JSON.
  if (route.method !== 'GET') statuses.push(400, 403, 413, 415);
  const { realm, session, role } = route.access;
  // A missing or wrong key (or hosted token) is a 401 too; the platform's optional session is never refused.
  if (realm !== 'platform' || session === 'required') statuses.push(401);
  // Missing admin role; inactive project of the API key or of the hosted pages.
  if (role === 'admin' || realm !== 'platform') statuses.push(403);
  // The hosted pages of an unknown project.
  if (realm === 'hosted') statuses.push(404);
  // A project the caller is not on answers like a missing one; a role too low for the action is a 403.
  if (onProjectTeam(route.access)) statuses.push(403, 404);
  const validatedParams = Object.values(route.params?.shape ?? {}).some((schema) => schema !== UnvalidatedParam);
  if (route.body || route.query || validatedParams) statuses.push(422);
  return [...new Set(statuses)];
}

const DEFAULT_RESPONSE_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 302: 'Redirect' };

export function buildOpenApiDocument(version: string, routes: readonly AnyRoute[]): OpenApiDocument {
  const names = namedObjectSchemas();
  const components: Record<Io, Record<string, JsonSchema>> = { input: componentsFor('input', names), output: componentsFor('output', names) };
  const used: Record<Io, Set<string>> = { input: new Set(), output: new Set([ERROR_RESPONSE]) };

  /** A $ref to the schema's component when it has one on this side, else the schema inline. */
  const schemaOf = (schema: z.ZodType, io: Io): JsonSchema => {
    const name = names.get(schema);
    if (name && components[io][name]) {
      used[io].add(name);
      return { $ref: COMPONENTS + name };
    }
    const inline = toJson(schema, io);
    // Local $defs (recursive schemas) would point at the document root once inlined: name such schemas instead.
    if (JSON.stringify(inline).includes('"$defs"')) throw new Error('A recursive schema must be exported by name to become a component');
    return inline;
  };
  const objectParams = (schema: z.ZodObject, where: 'query' | 'header') => {
    const json = toJson(schema, 'input');
    const required = new Set((json.required as string[] | undefined) ?? []);
    return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({ name, in: where, required: required.has(name), schema: property }));
  };
  const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const { doc } = route;
    const method = route.method.toLowerCase();
    const path = openApiPath(route.url);
    if (operationIds.has(doc.operationId)) throw new Error(`Duplicate operationId ${doc.operationId}`);
    operationIds.add(doc.operationId);
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`Duplicate operation ${route.method} ${path}`);

    const paramSchemas = (route.params?.shape ?? {}) as Record<string, z.ZodType>;
    const declared = Object.keys(paramSchemas);
    const inPath = pathParams(path);
    if (declared.length !== inPath.length || inPath.some((name) => !declared.includes(name))) {
      throw new Error(`${route.method} ${path}: path parameters ${inPath.join(', ')} but schemas for ${declared.join(', ')}`);
    }
    const parameters = [
      ...inPath.map((name) => ({ name, in: 'path' as const, required: true, schema: schemaOf(paramSchemas[name]!, 'input') })),
      ...(route.query ? objectParams(route.query, 'query') : []),
      ...(doc.headers ? objectParams(doc.headers, 'header') : []),
    ];

    const responses: OpenApiOperation['responses'] = {};
    const success = successStatus(route);
    const statuses = [success, ...Object.keys(route.response).map(Number).filter((status) => status !== success)];
    for (const status of statuses) {
      const schema = route.response[status as keyof AnyRoute['response']]!;
      const description = doc.responses?.[status as keyof AnyRoute['response']] ?? DEFAULT_RESPONSE_DESCRIPTIONS[status] ?? 'OK';
      responses[String(status)] =
        status === 302
          ? { description, headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } } }
          : doc.produces && status === success
            ? { description, content: Object.fromEntries([doc.produces].flat().map((type) => [type, { schema: type === 'application/octet-stream' ? { type: 'string', format: 'binary' } : { type: 'string' } }])) }
            : { description, content: jsonContent(schemaOf(schema, 'output')) };
    }
    const errors = [...new Set([...automaticErrors(route), ...(doc.errors ?? [])])].sort((a, b) => a - b);
    for (const status of errors) {
      responses[String(status)] = {
        description: ERROR_DESCRIPTIONS[status],
        ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } } } : {}),
        content: jsonContent({ $ref: COMPONENTS + ERROR_RESPONSE }),
      };
    }

    const security = securityOf(route.access);
    const admin = route.access.role === 'admin';
    item[method] = {
      operationId: doc.operationId,
      tags: [doc.tag],
      summary: doc.summary,
      ...(doc.description || admin ? { description: [doc.description, admin ? 'Admin role required.' : undefined].filter(Boolean).join(' ') } : {}),
      ...(security ? { security } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: !doc.bodyOptional, content: jsonContent(schemaOf(route.body, 'input')) } } : {}),
      ...(route.streamedBody
        ? { requestBody: { required: true, content: Object.fromEntries(Object.entries(route.streamedBody.types).map(([type, schema]) => [type, { schema: schemaOf(schema, 'input') }])) as NonNullable<OpenApiOperation['requestBody']>['content'] } }
        : {}),
      responses,
    };
  }

  // Only the components the operations reach, following $refs between components.
  const schemas: Record<string, JsonSchema> = {};
  for (const io of ['input', 'output'] as const) {
    const queue = [...used[io]];
    const seen = new Set<string>();
    while (queue.length) {
      const name = queue.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      const schema = components[io][name];
      if (!schema) throw new Error(`No ${io} schema for the component ${name}`);
      if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) {
        throw new Error(`${name} differs between requests and answers; give one of them its own schema`);
      }
      schemas[name] = schema;
      queue.push(...refsIn(schema, new Set()));
    }
  }

  return {
    openapi: '3.1.1',
    info: { title: 'AuthPlatform API', version, description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An ES256 access token from sign-in (Authorization: Bearer …).' },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: "A project's API key, for /public/api/v1." },
        hostedCookie: { type: 'apiKey', in: 'cookie', name: 'hosted_access_token', description: "The hosted pages' HttpOnly access-token cookie, set by their sign-in." },
        portalCookie: { type: 'apiKey', in: 'cookie', name: 'portal_session', description: "The setup portal's HttpOnly session cookie (path /portal), set when a one-time setup link is opened." },
      },
    },
  };
}
