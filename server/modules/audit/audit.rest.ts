import { z } from 'zod';
import { AuditPageSchema, AuditQuerySchema } from '../../../shared/schemas/audit.js';
import { defineRoute, UnvalidatedParam } from '../../rest/route.js';
import { getAuditLog } from './audit.service.js';

const DESCRIPTION =
  'Newest first, paged like the other lists. Filters: `action` (one, such as `user.deactivated`, or a family ending in a dot, such as `user.`), `actor` (part of the e-mail), `from` and `to` (dates or times). `before` and `after` hold what changed; secrets never appear.';

/** The audit log: the admin area's (every entry) and each project's (its own, for its owner). */
export const auditRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/admin/audit-log',
    auth: 'admin',
    query: AuditQuerySchema,
    response: { 200: AuditPageSchema },
    doc: { operationId: 'getAdminAuditLog', tag: 'Admin', summary: 'Every change made by an admin or a developer, append-only', description: DESCRIPTION },
    handler: ({ deps, query }) => getAuditLog(deps, undefined, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/audit-log',
    auth: 'projectMember',
    params: z.object({ id: UnvalidatedParam }),
    query: AuditQuerySchema,
    response: { 200: AuditPageSchema },
    doc: { operationId: 'getProjectAuditLog', tag: 'Project monitoring', summary: "The changes made to the project and its end users, append-only", description: DESCRIPTION },
    handler: ({ deps, caller, query }) => getAuditLog(deps, caller.scope.projectId!, query),
  }),
];
