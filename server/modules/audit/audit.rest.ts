import { z } from 'zod';
import { AuditPageSchema, AuditQuerySchema } from '../../../shared/schemas/audit.js';
import { EXPORT_MAX_ROWS } from '../../lib/csv.js';
import { csvAnswer, CsvSchema, withoutPaging } from '../../rest/csv-answer.js';
import { defineRoute, UnvalidatedParam, ADMIN, TEAM } from '../../rest/route.js';
import { exportAuditLog, getAuditLog } from './audit.service.js';

const DESCRIPTION =
  'Newest first, paged like the other lists. Filters: `action` (one, such as `user.deactivated`, or a family ending in a dot, such as `user.`), `actor` (part of the e-mail), `from` and `to` (dates or times). `before` and `after` hold what changed; secrets never appear.';

const EXPORT_DESCRIPTION = `The same filters as the list (\`action\`, \`actor\`, \`from\`, \`to\`). Every entry matching when the export starts (at most ${EXPORT_MAX_ROWS}, newest first; \`X-Export-Rows\` says how many, \`X-Export-Truncated: true\` that there were more), streamed as a CSV download: time, actor, action, target, \`before\` and \`after\` as JSON, IP address and browser; cells a spreadsheet would run as formulas are quoted as text. One export of yours runs at a time: another one meanwhile answers 429.`;
const ExportQuerySchema = withoutPaging(AuditQuerySchema);
const fileName = (scope: string) => `audit-log-${scope}-${new Date().toISOString().slice(0, 10)}`;

/** The admin area's audit log: every entry, with its CSV export. */
export const adminAuditRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/admin/audit-log',
    procedure: 'auditLog',
    access: ADMIN,
    query: AuditQuerySchema,
    response: { 200: AuditPageSchema },
    doc: { operationId: 'getAdminAuditLog', tag: 'Admin', summary: 'Every change made by an admin or a developer, append-only', description: DESCRIPTION },
    handler: ({ deps, query }) => getAuditLog(deps, undefined, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/admin/audit-log/export',
    access: ADMIN,
    query: ExportQuerySchema,
    response: { 200: CsvSchema },
    doc: { operationId: 'exportAdminAuditLog', tag: 'Admin', summary: 'Export the audit log as CSV', description: EXPORT_DESCRIPTION, errors: [429], produces: 'text/csv' },
    handler: async ({ deps, caller, query, reply }) => csvAnswer(reply, fileName('all'), await exportAuditLog(deps, caller.session.user, undefined, query as never)),
  }),
];

/** A project's own audit log, for its team, with its CSV export. */
export const projectAuditRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/audit-log',
    procedure: 'auditLog',
    access: TEAM,
    params: z.object({ id: UnvalidatedParam }),
    query: AuditQuerySchema,
    response: { 200: AuditPageSchema },
    doc: { operationId: 'getProjectAuditLog', tag: 'Project monitoring', summary: "The changes made to the project and its end users, append-only", description: DESCRIPTION },
    handler: ({ deps, caller, query }) => getAuditLog(deps, caller.scope.projectId!, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/audit-log/export',
    access: TEAM,
    params: z.object({ id: UnvalidatedParam }),
    query: ExportQuerySchema,
    response: { 200: CsvSchema },
    doc: { operationId: 'exportProjectAuditLog', tag: 'Project monitoring', summary: "Export the project's audit log as CSV", description: EXPORT_DESCRIPTION, errors: [429], produces: 'text/csv' },
    handler: async ({ deps, caller, query, reply }) => csvAnswer(reply, fileName('project'), await exportAuditLog(deps, caller.session.user, caller.scope.projectId!, query as never)),
  }),
];

/** The audit log: the admin area's and each project's. */
export const auditRoutes = [...adminAuditRoutes, ...projectAuditRoutes];
