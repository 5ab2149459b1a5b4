import { z } from 'zod';
import { PageQuerySchema } from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  AnalyticsSchema,
  ApiKeySchema,
  CreateApiKeyInputSchema,
  CreatedApiKeySchema,
  CreateProjectInputSchema,
  DashboardStatsSchema,
  ProjectSchema,
  UpdateProjectInputSchema,
} from '../../../shared/schemas/projects.js';
import { inputParser } from '../../lib/validate.js';
import { authedProcedure, router } from '../../trpc/init.js';
import * as monitor from '../admin/admin.service.js';
import { MONITOR_OUTPUT } from '../admin/admin.trpc.js';
import * as projects from './projects.service.js';

const Id = z.string({ error: 'id is required' }).trim().min(1, { error: 'id is required' }).max(64, { error: 'Not found' });
const ProjectId = z.object({ projectId: Id });
const ProjectPage = ProjectId.extend(PageQuerySchema.shape);

/** Ownership first, then the monitoring scope of that project's end users. */
const projectScope = async (ctx: { deps: Parameters<typeof projects.requireOwnedProject>[0]; auth: { user: Parameters<typeof projects.requireOwnedProject>[1] } }, projectId: string) =>
  ({ projectId: (await projects.requireOwnedProject(ctx.deps, ctx.auth.user, projectId)).id });

const monitorRouter = router({
  stats: authedProcedure
    .input(inputParser(ProjectId))
    .output(MONITOR_OUTPUT.stats)
    .query(async ({ ctx, input }) => monitor.getStats(ctx.deps, await projectScope(ctx, input.projectId))),
  users: authedProcedure
    .input(inputParser(ProjectPage))
    .output(MONITOR_OUTPUT.users)
    .query(async ({ ctx, input }) => monitor.getUsers(ctx.deps, await projectScope(ctx, input.projectId), input)),
  user: authedProcedure
    .input(inputParser(ProjectId.extend({ id: Id })))
    .output(MONITOR_OUTPUT.user)
    .query(async ({ ctx, input }) => monitor.getUserDetail(ctx.deps, await projectScope(ctx, input.projectId), input.id)),
  unlockUser: authedProcedure
    .input(inputParser(ProjectId.extend({ id: Id })))
    .output(MONITOR_OUTPUT.unlockUser)
    .mutation(async ({ ctx, input }) => monitor.unlockUser(ctx.deps, await projectScope(ctx, input.projectId), input.id)),
  toggleUserActive: authedProcedure
    .input(inputParser(ProjectId.extend({ id: Id })))
    .output(MONITOR_OUTPUT.toggleUserActive)
    .mutation(async ({ ctx, input }) => monitor.toggleUserActive(ctx.deps, await projectScope(ctx, input.projectId), ctx.auth.user, input.id)),
  loginAttempts: authedProcedure
    .input(inputParser(ProjectPage))
    .output(MONITOR_OUTPUT.loginAttempts)
    .query(async ({ ctx, input }) => monitor.getLoginAttempts(ctx.deps, await projectScope(ctx, input.projectId), input)),
  devices: authedProcedure
    .input(inputParser(ProjectPage))
    .output(MONITOR_OUTPUT.devices)
    .query(async ({ ctx, input }) => monitor.getDevices(ctx.deps, await projectScope(ctx, input.projectId), input)),
  toggleDeviceBlock: authedProcedure
    .input(inputParser(ProjectId.extend({ id: Id })))
    .output(MONITOR_OUTPUT.toggleDeviceBlock)
    .mutation(async ({ ctx, input }) => monitor.toggleDeviceBlock(ctx.deps, await projectScope(ctx, input.projectId), input.id)),
  toggleDeviceTrust: authedProcedure
    .input(inputParser(ProjectId.extend({ id: Id })))
    .output(MONITOR_OUTPUT.toggleDeviceTrust)
    .mutation(async ({ ctx, input }) => monitor.toggleDeviceTrust(ctx.deps, await projectScope(ctx, input.projectId), input.id)),
  sessions: authedProcedure
    .input(inputParser(ProjectPage))
    .output(MONITOR_OUTPUT.sessions)
    .query(async ({ ctx, input }) => monitor.getSessions(ctx.deps, await projectScope(ctx, input.projectId), input)),
  revokeSession: authedProcedure
    .input(inputParser(ProjectId.extend({ id: Id })))
    .output(MONITOR_OUTPUT.revokeSession)
    .mutation(async ({ ctx, input }) => monitor.revokeSessionById(ctx.deps, await projectScope(ctx, input.projectId), input.id)),
});

export const projectsRouter = router({
  list: authedProcedure.output(z.array(ProjectSchema)).query(({ ctx }) => projects.listProjects(ctx.deps, ctx.auth.user)),
  get: authedProcedure
    .input(inputParser(ProjectId))
    .output(ProjectSchema)
    .query(({ ctx, input }) => projects.getProject(ctx.deps, ctx.auth.user, input.projectId)),
  create: authedProcedure
    .input(inputParser(CreateProjectInputSchema))
    .output(ProjectSchema)
    .mutation(({ ctx, input }) => projects.createProject(ctx.deps, ctx.auth.user, input)),
  update: authedProcedure
    .input(inputParser(ProjectId.extend({ changes: UpdateProjectInputSchema })))
    .output(ProjectSchema)
    .mutation(({ ctx, input }) => projects.updateProject(ctx.deps, ctx.auth.user, input.projectId, input.changes)),
  delete: authedProcedure
    .input(inputParser(ProjectId))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => projects.deleteProject(ctx.deps, ctx.auth.user, input.projectId)),
  apiKeys: authedProcedure
    .input(inputParser(ProjectId))
    .output(z.array(ApiKeySchema))
    .query(({ ctx, input }) => projects.listProjectApiKeys(ctx.deps, ctx.auth.user, input.projectId)),
  createApiKey: authedProcedure
    .input(inputParser(ProjectId.extend(CreateApiKeyInputSchema.shape)))
    .output(CreatedApiKeySchema)
    .mutation(({ ctx, input }) => projects.createApiKey(ctx.deps, ctx.auth.user, input.projectId, input)),
  revokeApiKey: authedProcedure
    .input(inputParser(ProjectId.extend({ keyId: Id })))
    .output(ApiKeySchema)
    .mutation(({ ctx, input }) => projects.revokeProjectApiKey(ctx.deps, ctx.auth.user, input.projectId, input.keyId)),
  analytics: authedProcedure
    .input(inputParser(ProjectId.extend({ days: z.number().int().min(1).max(90).default(30) })))
    .output(AnalyticsSchema)
    .query(({ ctx, input }) => projects.getAnalytics(ctx.deps, ctx.auth.user, input.projectId, input.days)),
  dashboardStats: authedProcedure.output(DashboardStatsSchema).query(({ ctx }) => projects.getDashboardStats(ctx.deps, ctx.auth.user)),
  monitor: monitorRouter,
});
