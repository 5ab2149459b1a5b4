import { AuditPageSchema, AuditQuerySchema } from '../../../shared/schemas/audit.js';
import { ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import { inputParser } from '../../lib/validate.js';
import { adminProcedure, projectProcedure, router } from '../../trpc/init.js';
import { projectScopeOf } from '../projects/project-access.js';
import { getAuditLog } from './audit.service.js';

const OptionalAuditQuerySchema = AuditQuerySchema.optional().transform((q) => q ?? AuditQuerySchema.parse({}));

/** Admin → Audit log: every change, the platform's and every project's. */
export const adminAuditRouter = router({
  auditLog: adminProcedure
    .input(inputParser(OptionalAuditQuerySchema))
    .output(AuditPageSchema)
    .query(({ ctx, input }) => getAuditLog(ctx.deps, undefined, input)),
});

/** A project's own audit log, for anyone on its team. */
export const projectAuditRouter = router({
  auditLog: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend(AuditQuerySchema.shape)))
    .output(AuditPageSchema)
    .query(async ({ ctx, input }) => {
      const { projectId, ...query } = input;
      const scope = await projectScopeOf(ctx.deps, ctx.auth.user, projectId, 'viewer');
      return getAuditLog(ctx.deps, scope.projectId!, query);
    }),
});
