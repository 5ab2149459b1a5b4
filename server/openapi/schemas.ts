import { z } from 'zod';
import { ApiKeySchema, ProjectSchema } from '../../shared/schemas/projects.js';
import { StepUpMethodSchema } from '../../shared/schemas/step-up.js';
import type { Health, Readiness } from '../modules/health/health.service.js';

/**
 * Zod schemas for the REST answers (and headers) that have no schema in shared/: the wrappers the
 * REST routes add around service results, and the few answers that come from libraries. Every
 * export ending in `Schema` becomes a named component of the OpenAPI document.
 */

/**
 * Every REST error: the status says what kind, `detail` says what happened, in words a person can act
 * on. A 401 of a signed-in call that needs a fresh proof of who the user is also says so (POST …/auth/step-up).
 */
export const ErrorResponseSchema = z.object({
  detail: z.string(),
  step_up_required: z.literal(true).optional().meta({ description: 'Present on a 401 that asks the signed-in user to prove who they are again (POST …/auth/step-up), then retry.' }),
  step_up_methods: z.array(StepUpMethodSchema).optional().meta({ description: 'The proofs the account can give; empty: only signing in again.' }),
});

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
  version: z.string(),
  uptime_s: z.number().int(),
});

export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['ok', 'unavailable']),
  migrations: z.enum(['ok', 'pending', 'unknown']).meta({ description: '`unknown` while the database does not answer.' }),
  pending_migrations: z.array(z.string()).meta({ description: "The migrations of this version the database has not run (npm run migrate, or a restart, runs them)." }),
});

/** A public JSON Web Key (ES256, P-256) as published in a JWKS. */
export const JwkSchema = z.looseObject({
  kty: z.string(),
  crv: z.string().optional(),
  x: z.string().optional(),
  y: z.string().optional(),
  kid: z.string().optional(),
  alg: z.string().optional(),
  use: z.string().optional(),
});
export const JwksSchema = z.object({ keys: z.array(JwkSchema) });

/** ALTCHA v2 challenge (altcha-lib's `Challenge`), as the widget reads it from the challenge URL. */
export const AltchaChallengeSchema = z.looseObject({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string().optional(),
});

export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });
export const ApiKeyListSchema = z.object({ api_keys: z.array(ApiKeySchema) });

export { EndUserHeadersSchema } from '../rest/end-user-headers.js';

/** The document itself, loosely: enough to say what GET /api/openapi.json answers. */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

// The health and readiness answers are built by a service with its own types; keep them in step.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const healthInSync: Same<z.infer<typeof HealthSchema>, Health> = true;
const readinessInSync: Same<z.infer<typeof ReadinessSchema>, Readiness> = true;
void healthInSync;
void readinessInSync;
