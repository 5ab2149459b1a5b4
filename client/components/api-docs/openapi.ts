/**
 * Just enough of OpenAPI 3.1 to render a reference: operations grouped by tag, their auth, parameters,
 * request-body fields and responses. Unknown shapes degrade to less detail, never to an error.
 */

export interface OpenApiSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
}

interface MediaType {
  schema?: OpenApiSchema;
  example?: unknown;
}

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: OpenApiSchema;
}

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; description?: string; content?: Record<string, MediaType> };
  responses?: Record<string, { $ref?: string; description?: string; content?: Record<string, MediaType> }>;
}

interface SecurityScheme {
  type?: string;
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation | unknown>>;
  components?: {
    schemas?: Record<string, OpenApiSchema>;
    securitySchemes?: Record<string, SecurityScheme>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, Operation['requestBody']>;
    responses?: Record<string, NonNullable<Operation['responses']>[string]>;
  };
  security?: Record<string, string[]>[];
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = Uppercase<(typeof HTTP_METHODS)[number]>;

export interface Field {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

export interface ReferenceOperation {
  id: string;
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  deprecated: boolean;
  auth: string[];
  parameters: (Field & { in: string })[];
  body?: { contentType: string; required: boolean; fields: Field[]; type?: string };
  responses: { status: string; description: string; schema?: string }[];
}

export interface ReferenceGroup {
  tag: string;
  description?: string;
  operations: ReferenceOperation[];
}

export interface Reference {
  title: string;
  version?: string;
  description?: string;
  servers: string[];
  groups: ReferenceGroup[];
  count: number;
}

function resolve<T extends { $ref?: string }>(doc: OpenApiDocument, value: T | undefined, depth = 0): T | undefined {
  if (!value?.$ref || depth > 8) return value;
  const match = /^#\/(.+)$/.exec(value.$ref);
  if (!match) return value;
  let target: unknown = doc;
  for (const part of match[1]!.split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    target = target && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
  }
  return target ? resolve(doc, target as T, depth + 1) : value;
}

/** allOf merged, $refs followed: the object whose properties are the fields. */
function flatten(doc: OpenApiSchema, root: OpenApiDocument, depth = 0): OpenApiSchema {
  const schema = resolve(root, doc) ?? {};
  if (!schema.allOf || depth > 6) return schema;
  const parts = schema.allOf.map((part) => flatten(part, root, depth + 1));
  return {
    ...schema,
    type: schema.type ?? parts.find((p) => p.type)?.type,
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), schema.properties ?? {}),
    required: [...(schema.required ?? []), ...parts.flatMap((p) => p.required ?? [])],
  };
}

function refName(ref: string | undefined): string | undefined {
  return ref?.split('/').pop();
}

/** A short human type: 'string (email)', 'integer', 'string | null', "'development' | 'staging'", 'Project[]'. */
export function typeLabel(schema: OpenApiSchema | undefined, root: OpenApiDocument, depth = 0): string {
  if (!schema) return 'any';
  if (schema.$ref) {
    const target = resolve(root, schema);
    const name = refName(schema.$ref);
    if (target && target !== schema && !target.properties && depth < 4) return typeLabel(target, root, depth + 1);
    return name ?? 'object';
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeLabel(v, root, depth + 1)))].join(' | ');
  if (schema.allOf) return schema.allOf.length === 1 ? typeLabel(schema.allOf[0], root, depth + 1) : 'object';
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const labels = (types.length ? types : [schema.properties ? 'object' : 'any']).map((type) =>
    type === 'array' ? `${typeLabel(schema.items, root, depth + 1)}[]` : type,
  );
  if (schema.nullable) labels.push('null');
  const label = labels.join(' | ');
  return schema.format ? `${label} (${schema.format})` : label;
}

function describeField(schema: OpenApiSchema | undefined, root: OpenApiDocument): string | undefined {
  const resolved = resolve(root, schema);
  if (!resolved) return undefined;
  const notes: string[] = [];
  if (resolved.description) notes.push(resolved.description);
  if (resolved.minLength !== undefined && resolved.maxLength !== undefined) notes.push(`${resolved.minLength}–${resolved.maxLength} characters`);
  else if (resolved.maxLength !== undefined) notes.push(`at most ${resolved.maxLength} characters`);
  else if (resolved.minLength !== undefined && resolved.minLength > 1) notes.push(`at least ${resolved.minLength} characters`);
  if (resolved.default !== undefined) notes.push(`default ${JSON.stringify(resolved.default)}`);
  return notes.length ? notes.join(' · ') : undefined;
}

function fieldsOf(schema: OpenApiSchema | undefined, root: OpenApiDocument): Field[] {
  if (!schema) return [];
  const flat = flatten(schema, root);
  const required = new Set(flat.required ?? []);
  return Object.entries(flat.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeLabel(property, root),
    required: required.has(name),
    description: describeField(property, root),
  }));
}

function authOf(doc: OpenApiDocument, operation: Operation): string[] {
  const requirements = operation.security ?? doc.security ?? [];
  const schemes = doc.components?.securitySchemes ?? {};
  const labels = requirements.map((requirement) => {
    const names = Object.keys(requirement);
    if (names.length === 0) return 'None';
    return names
      .map((name) => {
        const scheme = schemes[name];
        if (!scheme) return name;
        if (scheme.type === 'apiKey') return `${scheme.name ?? name} ${scheme.in === 'cookie' ? 'cookie' : scheme.in === 'query' ? 'query parameter' : 'header'}`;
        if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return `Bearer ${scheme.bearerFormat ?? 'token'}`;
        if (scheme.type === 'http') return `HTTP ${scheme.scheme ?? ''}`.trim();
        return scheme.type ?? name;
      })
      .join(' + ');
  });
  return labels.length ? [...new Set(labels)] : ['None'];
}

function isOperation(value: unknown): value is Operation {
  return Boolean(value) && typeof value === 'object';
}

/** The document as tag groups (the document's tag order first, then the rest in order of appearance). */
export function buildReference(doc: OpenApiDocument): Reference {
  const groups = new Map<string, ReferenceGroup>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, { tag: tag.name, description: tag.description, operations: [] });
  let count = 0;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    const shared = (item as { parameters?: Parameter[] }).parameters ?? [];
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, unknown>)[method];
      if (!isOperation(operation)) continue;
      count += 1;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, { tag, operations: [] });
      const parameters = [...shared, ...(operation.parameters ?? [])]
        .map((p) => resolve(doc, p))
        .filter((p): p is Parameter => Boolean(p?.name))
        .map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          type: typeLabel(p.schema, doc),
          description: p.description ?? describeField(p.schema, doc),
        }));
      const body = resolve(doc, operation.requestBody);
      const [contentType, media] = Object.entries(body?.content ?? {})[0] ?? [];
      const bodySchema = media?.schema ? flatten(media.schema, doc) : undefined;
      const fields = fieldsOf(media?.schema, doc);
      groups.get(tag)!.operations.push({
        id: `${method}-${path}`,
        method: method.toUpperCase() as HttpMethod,
        path,
        summary: operation.summary ?? operation.operationId ?? '',
        description: operation.description,
        deprecated: Boolean(operation.deprecated),
        auth: authOf(doc, operation),
        parameters,
        body:
          body && contentType
            ? {
                contentType,
                required: Boolean(body.required),
                fields,
                type: fields.length === 0 && bodySchema ? typeLabel(media!.schema, doc) : undefined,
              }
            : undefined,
        responses: Object.entries(operation.responses ?? {})
          .map(([status, raw]) => {
            const response = resolve(doc, raw);
            const schema = Object.values(response?.content ?? {})[0]?.schema;
            return { status, description: response?.description ?? '', schema: schema ? typeLabel(schema, doc) : undefined };
          })
          .sort((a, b) => a.status.localeCompare(b.status)),
      });
    }
  }
  return {
    title: doc.info?.title ?? 'API reference',
    version: doc.info?.version,
    description: doc.info?.description,
    servers: (doc.servers ?? []).map((server) => server.url).filter(Boolean),
    groups: [...groups.values()].filter((group) => group.operations.length > 0),
    count,
  };
}

export class OpenApiUnavailable extends Error {
  constructor(readonly status: number) {
    super(`OpenAPI document unavailable (${status})`);
  }
}

export const OPENAPI_URL = '/api/openapi.json';

export async function fetchOpenApi(signal?: AbortSignal): Promise<OpenApiDocument> {
  const response = await fetch(OPENAPI_URL, { headers: { accept: 'application/json' }, credentials: 'same-origin', signal });
  if (!response.ok) throw new OpenApiUnavailable(response.status);
  const type = response.headers.get('content-type') ?? '';
  // The SPA fallback answers index.html for unknown paths: that is "not there" too.
  if (!type.includes('json')) throw new OpenApiUnavailable(404);
  const doc = (await response.json()) as OpenApiDocument;
  if (!doc || typeof doc !== 'object' || !doc.paths) throw new OpenApiUnavailable(422);
  return doc;
}
