import type { Readable } from 'node:stream';
import { z } from 'zod';
import { FIREBASE_PARAMS_HEADER, FirebaseParamsHeaderSchema, ImportHeadersSchema, ImportJobSchema, ImportJobStartedSchema, ImportQuerySchema } from '../../../shared/schemas/user-import.js';
import { UserTransferLineSchema, type FirebaseScryptParams } from '../../../shared/schemas/user-transfer.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../lib/validate.js';
import { defineRoute, TEAM, UnvalidatedParam, type AnyRoute } from '../../rest/route.js';
import { createImportJob, failImportJob, getImportJob, runImportJob } from './import.service.js';
import { NDJSON_TYPES, readerFor } from './readers/for-format.js';
import { spoolUpload } from './spool.js';

/** Firebase's hash parameters from their header (JSON); null without it. */
export function firebaseParamsOf(header: string | string[] | undefined): FirebaseScryptParams | null {
  if (header === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(Array.isArray(header) ? header[0]! : header);
  } catch {
    throw new AppError('UNPROCESSABLE_CONTENT', `${FIREBASE_PARAMS_HEADER} must be JSON: {"signer_key", "salt_separator", "rounds", "mem_cost"}`);
  }
  return parseInput(FirebaseParamsHeaderSchema, value);
}

const ProjectParams = z.object({ id: UnvalidatedParam });

export const USER_TRANSFER_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/users/import',
    access: TEAM,
    params: ProjectParams,
    query: ImportQuerySchema,
    streamedBody: {
      types: {
        'application/json': z.array(UserTransferLineSchema),
        ...Object.fromEntries(NDJSON_TYPES.map((type) => [type, UserTransferLineSchema.describe('One user a line (NDJSON)')])),
        'text/csv': z.string().describe("A provider's CSV export (format=supabase, clerk or cognito)"),
      },
    },
    response: { 202: ImportJobStartedSchema },
    doc: {
      operationId: 'projectImportUsers',
      tag: 'Project monitoring',
      summary: 'Import end users',
      headers: ImportHeadersSchema,
      errors: [409, 413, 415, 422],
      description:
        'NDJSON (`application/x-ndjson`, one user a line) or a JSON array (`application/json`) of user lines, or with `?format=auth0|firebase|supabase|clerk|cognito` that provider\'s own export file (JSON, NDJSON or `text/csv` as it writes it), read as it streams; answers 202 with the job id once the body is in, and the job runs on. ' +
        '`?dry_run=true` checks every line (and addresses already in the project) and writes nothing. A line whose address (or `external_id`) is in the project already fails, never overwrites. ' +
        "Firebase's hash parameters go in the `X-Firebase-Hash-Params` header as JSON. 409 while another import into the project runs. Audited as `users.imported`; the webhooks get `user.created` per user.",
    },
    handler: async ({ deps, caller, query, request }) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const reader = readerFor(query.format, type);
      if (!reader) {
        const accepted = query.format === 'native' ? 'application/x-ndjson or application/json' : 'application/x-ndjson, application/json or text/csv';
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be ${accepted}`);
      }
      const firebaseParams = firebaseParamsOf(request.headers[FIREBASE_PARAMS_HEADER]);
      const options = {
        projectId: caller.scope.projectId!,
        dryRun: query.dry_run,
        format: query.format,
        source: 'api' as const,
        firebaseParams,
        actor: { user: caller.session.user, info: caller.info },
      };
      const started = await createImportJob(deps, options);
      let spooled;
      try {
        spooled = await spoolUpload(deps.config.importSpoolDir, request.body as Readable, query.format === 'native' && type === 'application/json' ? { expect: '[', refusal: 'The body must be a JSON array of users' } : undefined);
      } catch (error) {
        await failImportJob(deps, started.job.id, error instanceof AppError ? error.message : 'The upload did not arrive whole');
        throw error;
      }
      const body = spooled;
      void runImportJob(deps, started.job, started.firebaseParamsId, options, reader, body.open()).finally(() => body.remove());
      return { job_id: started.job.id, state: 'running' as const };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/users/import/:job_id',
    access: TEAM,
    params: z.object({ id: UnvalidatedParam, job_id: UnvalidatedParam }),
    response: { 200: ImportJobSchema },
    doc: {
      operationId: 'projectImportJob',
      tag: 'Project monitoring',
      summary: 'Read an import job',
      errors: [404],
      description:
        'Its progress (lines read, users created, lines failed) and state (`running`, `done`, `failed`), and the first 1,000 failed lines with their number and reason (`errors_not_listed` counts the rest). A job whose server stopped reads as failed.',
    },
    handler: ({ deps, caller, params }) => getImportJob(deps, caller.scope.projectId!, params.job_id),
  }),
];
