import { z } from 'zod';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  AnalyticsSchema,
  ApiKeySchema,
  CreateApiKeyInputSchema,
  CreatedApiKeySchema,
  CreateProjectInputSchema,
  DashboardStatsSchema,
  IdInputSchema,
  ProjectIdInputSchema,
  ProjectSchema,
  UpdateProjectInputSchema,
} from '../../../shared/schemas/projects.js';
import { inputParser } from '../../lib/validate.js';
import { authedProcedure, projectProcedure, router } from '../../trpc/init.js';
import * as projects from './projects.service.js';

const Id = IdInputSchema;
const ProjectId = ProjectIdInputSchema;

export const projectsRouter = router({
  list: authedProcedure.output(z.array(ProjectSchema)).query(({ ctx }) => projects.listProjects(ctx.deps, ctx.auth.user)),
  get: projectProcedure()
    .input(inputParser(ProjectId))
    .output(ProjectSchema)
    .query(({ ctx, input }) => projects.getProject(ctx.deps, ctx.auth.user, input.projectId)),
  create: authedProcedure
    .input(inputParser(CreateProjectInputSchema))
    .output(ProjectSchema)
    .mutation(({ ctx, input }) => projects.createProject(ctx.deps, ctx.auth.user, input, ctx.request)),
  update: projectProcedure()
    .input(inputParser(ProjectId.extend({ changes: UpdateProjectInputSchema })))
    .output(ProjectSchema)
    .mutation(({ ctx, input }) => projects.updateProject(ctx.deps, ctx.auth.user, input.projectId, input.changes, ctx.request)),
  delete: projectProcedure('owner')
    .input(inputParser(ProjectId))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => projects.deleteProject(ctx.deps, ctx.auth.user, input.projectId, ctx.request)),
  apiKeys: projectProcedure()
    .input(inputParser(ProjectId))
    .output(z.array(ApiKeySchema))
    .query(({ ctx, input }) => projects.listProjectApiKeys(ctx.deps, ctx.auth.user, input.projectId)),
  createApiKey: projectProcedure()
    .input(inputParser(ProjectId.extend(CreateApiKeyInputSchema.shape)))
    .output(CreatedApiKeySchema)
    .mutation(({ ctx, input }) => projects.createApiKey(ctx.deps, ctx.auth.user, input.projectId, input, ctx.request)),
  revokeApiKey: projectProcedure()
    .input(inputParser(ProjectId.extend({ keyId: Id })))
    .output(ApiKeySchema)
    .mutation(({ ctx, input }) => projects.revokeProjectApiKey(ctx.deps, ctx.auth.user, input.projectId, input.keyId, ctx.request)),
  analytics: projectProcedure()
    .input(inputParser(ProjectId.extend({ days: z.number().int().min(1).max(90).default(30) })))
    .output(AnalyticsSchema)
    .query(({ ctx, input }) => projects.getAnalytics(ctx.deps, ctx.auth.user, input.projectId, input.days)),
  dashboardStats: authedProcedure.output(DashboardStatsSchema).query(({ ctx }) => projects.getDashboardStats(ctx.deps, ctx.auth.user)),
});
