import { z } from 'zod';
import { FirebaseScryptParamsSchema } from './user-transfer.js';

/** The formats an import reads (`?format=`): the native user line, or a provider's own export file. */
export const IMPORT_FORMATS = ['native', 'auth0', 'firebase', 'supabase', 'clerk', 'cognito'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const ImportQuerySchema = z.object({
  dry_run: z
    .enum(['true', 'false'], { error: 'dry_run must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
  format: z.enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(', ')}` }).default('native'),
});

/** The media type an import file is sent as, from its name (the CLI and the dashboard's upload): .csv, .json, else NDJSON. */
export function importFileType(name: string): 'text/csv' | 'application/json' | 'application/x-ndjson' {
  const lower = name.toLowerCase();
  return lower.endsWith('.csv') ? 'text/csv' : lower.endsWith('.json') ? 'application/json' : 'application/x-ndjson';
}

/** The header that carries Firebase's hash parameters once per import (never the URL: URLs are logged). */
export const FIREBASE_PARAMS_HEADER = 'x-firebase-hash-params';
export const ImportHeadersSchema = z.object({
  [FIREBASE_PARAMS_HEADER]: z.string().optional().describe('Firebase\'s password hash parameters as JSON: {"signer_key", "salt_separator", "rounds", "mem_cost"}'),
});

/** Firebase's parameters as the header gives them; mem_cost is bounded to what a sign-in may spend (2^20 · rounds · 128 bytes). */
export const FirebaseParamsHeaderSchema = FirebaseScryptParamsSchema.extend({ mem_cost: z.number().int().min(1).max(20) });

export const ImportJobStartedSchema = z.object({ job_id: z.string(), state: z.enum(['running', 'done', 'failed']) });

export const ImportJobSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  dry_run: z.boolean(),
  format: z.string(),
  source: z.enum(['api', 'cli']),
  lines_read: z.number().int(),
  /** Users created (for a dry run: that would be created). */
  created: z.number().int(),
  failed: z.number().int(),
  /** The first 1,000 failed lines, by line number (an NDJSON line or a JSON array's element, from 1). */
  errors: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  /** Failed lines past the first 1,000: counted, not listed. */
  errors_not_listed: z.number().int(),
  /** Why the whole job failed (an unreadable body, an interruption); null otherwise. */
  failure: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportJob = z.infer<typeof ImportJobSchema>;
