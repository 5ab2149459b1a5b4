import { z } from 'zod';
import { IdParamSchema, UserListQuerySchema } from '../../../../shared/schemas/admin.js';
import { EncryptedUserExportInputSchema, UserExportFormatSchema } from '../../../../shared/schemas/user-export.js';
import { AppError } from '../../../errors.js';
import { csvAnswer, CsvSchema, withoutPaging } from '../../../rest/csv-answer.js';
import { defineRoute, TEAM } from '../../../rest/route.js';
import { exportUsers as exportUsersAsCsv } from '../../monitoring/monitoring.service.js';
import { exportUsers, type UserExport } from './export.service.js';
import type { FastifyReply } from 'fastify';

const EXPORT_QUERY = withoutPaging(UserListQuerySchema).extend({ format: UserExportFormatSchema });
const SECRETS_BY_POST = 'Password hashes and TOTP secrets are exported only encrypted: POST /api/v1/projects/{id}/users/export with {include, passphrase}';

const LINES =
  'One JSON object a line (UserTransferLine, the format POST …/users/import reads): id, email, email_verified, first_name, last_name, created_at, public_metadata, private_metadata, organizations (slug, role), passkeys (credential_id and public_key in base64url, counter, transports, name, created_at). Every user matching when the export starts (no cap), streamed; `X-Export-Rows` says how many. One export of yours runs at a time: another one meanwhile answers 429.';

/** The file's name: the day's date, and `.age` when encrypted. */
function userExportAnswer(reply: FastifyReply, exported: UserExport) {
  const name = `users-${new Date().toISOString().slice(0, 10)}.ndjson${exported.encrypted ? '.age' : ''}`;
  reply
    .type(exported.encrypted ? 'application/octet-stream' : 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .header('x-export-rows', String(exported.rows));
  return exported.body;
}

const Params = z.object({ id: IdParamSchema.shape.id });

export const userExportRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/users/export',
    access: TEAM,
    params: Params,
    query: EXPORT_QUERY,
    response: { 200: CsvSchema },
    doc: {
      operationId: 'exportProjectUsers',
      tag: 'Project monitoring',
      summary: "Export the project's end users (NDJSON for a move, or CSV)",
      description: `\`format=ndjson\` (the default; a project admin): ${LINES} Without secrets: \`password\` and \`totp_secret\` are left out (the encrypted export, POST, has them). \`format=csv\` (any team member): the Users list as CSV, at most 50,000 rows, newest first (\`X-Export-Truncated\`). Both take the Users list's filters: \`q\`, \`status\`, \`verified\`, \`from\`, \`to\`.`,
      errors: [400, 403, 429],
      produces: ['application/x-ndjson', 'text/csv'],
    },
    handler: async ({ deps, caller, query, request, reply }) => {
      if (new URL(request.url, 'http://localhost').searchParams.has('include')) throw new AppError('BAD_REQUEST', SECRETS_BY_POST);
      const { format, ...filters } = query;
      if (format === 'csv') return csvAnswer(reply, `users-${new Date().toISOString().slice(0, 10)}`, await exportUsersAsCsv(deps, caller.scope, caller.session.user, filters));
      return userExportAnswer(reply, await exportUsers(deps, caller, caller.scope.projectId!, { filters, include: [], passphrase: null }));
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/users/export',
    access: TEAM,
    params: Params,
    body: EncryptedUserExportInputSchema,
    response: { 200: CsvSchema },
    doc: {
      operationId: 'exportProjectUsersEncrypted',
      tag: 'Project monitoring',
      summary: "Export the project's end users encrypted, with their secrets",
      description: `The NDJSON export (see GET) as an age file (https://age-encryption.org/v1, binary, scrypt passphrase recipient: \`age -d users.ndjson.age\` asks for the passphrase). The passphrase travels in the body, never in a URL, and is not kept. \`include\` may name \`password_hashes\` (each user's \`password\`: the bcrypt hash; null for a user without a password) and \`totp_secrets\` (the base32 \`totp_secret\` of a user with two factors on): the project's owner only, within the step-up window (401 step_up_required otherwise: POST /api/v1/auth/step-up). Without \`include\` a project admin may ask. Audited as users.exported.`,
      errors: [401, 403, 429],
      produces: 'application/octet-stream',
    },
    handler: async ({ deps, caller, body, reply }) =>
      userExportAnswer(reply, await exportUsers(deps, caller, caller.scope.projectId!, { filters: {}, include: body.include, passphrase: body.passphrase })),
  }),
];
