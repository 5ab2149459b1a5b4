import {
  AdminStatsSchema,
  DevicePageSchema,
  DeviceSchema,
  IdParamSchema,
  LoginAttemptPageSchema,
  PageQuerySchema,
  SessionPageSchema,
  UserDetailSchema,
  UserPageSchema,
  type PageQuery,
} from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { inputParser, noInput, type InputParser } from '../../lib/validate.js';
import { adminProcedure, authedProcedure, router, type Context } from '../../trpc/init.js';
import { IdInputSchema, ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import { projectScopeOf } from '../projects/projects.service.js';
import { PLATFORM_SCOPE, type MonitorScope } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import type { AuditActor } from '../audit/audit.service.js';
import * as monitoring from './monitoring.service.js';

type AuthedContext = Context & { auth: Authenticated };

const actorOf = (ctx: AuthedContext): AuditActor => ({ user: ctx.auth.user, info: ctx.request });

/** How one mount of the monitoring router reads its input and finds its scope. */
interface MonitoringMount<SIn, S, PIn, P extends PageQuery, IIn, I extends { id: string }> {
  /** Checks the caller (and role) before any input is read. */
  procedure: typeof authedProcedure;
  /** The input of a procedure on the whole scope, of a page of a list, and of one item. */
  inputs: { scope: InputParser<SIn, S>; page: InputParser<PIn, P>; item: InputParser<IIn, I> };
  /** The accounts the caller may watch, once the input is read. */
  scopeOf(ctx: AuthedContext, input: S | P | I): Promise<MonitorScope>;
}

/** The monitoring procedures, written once and mounted as `admin.*` and as `projects.monitor.*`. */
function monitoringRouter<SIn, S, PIn, P extends PageQuery, IIn, I extends { id: string }>(mount: MonitoringMount<SIn, S, PIn, P, IIn, I>) {
  const within = <TIn, T extends S | P | I>(input: InputParser<TIn, T>) =>
    mount.procedure.input(input).use(async ({ ctx, input, next }) => next({ ctx: { ...ctx, scope: await mount.scopeOf(ctx, input) } }));
  const { scope, page, item } = mount.inputs;
  return router({
    stats: within(scope).output(AdminStatsSchema).query(({ ctx }) => monitoring.getStats(ctx.deps, ctx.scope)),
    users: within(page).output(UserPageSchema).query(({ ctx, input }) => monitoring.getUsers(ctx.deps, ctx.scope, input)),
    user: within(item).output(UserDetailSchema).query(({ ctx, input }) => monitoring.getUserDetail(ctx.deps, ctx.scope, input.id)),
    toggleUserActive: within(item)
      .output(UserSchema)
      .mutation(({ ctx, input }) => monitoring.toggleUserActive(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    unlockUser: within(item).output(UserSchema).mutation(({ ctx, input }) => monitoring.unlockUser(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    resetUserMfa: within(item).output(UserSchema).mutation(({ ctx, input }) => monitoring.resetUserMfa(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    loginAttempts: within(page).output(LoginAttemptPageSchema).query(({ ctx, input }) => monitoring.getLoginAttempts(ctx.deps, ctx.scope, input)),
    devices: within(page).output(DevicePageSchema).query(({ ctx, input }) => monitoring.getDevices(ctx.deps, ctx.scope, input)),
    toggleDeviceBlock: within(item).output(DeviceSchema).mutation(({ ctx, input }) => monitoring.toggleDeviceBlock(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    toggleDeviceTrust: within(item).output(DeviceSchema).mutation(({ ctx, input }) => monitoring.toggleDeviceTrust(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    sessions: within(page).output(SessionPageSchema).query(({ ctx, input }) => monitoring.getSessions(ctx.deps, ctx.scope, input)),
    revokeSession: within(item).output(MessageSchema).mutation(({ ctx, input }) => monitoring.revokeSessionById(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
  });
}

const OptionalPageSchema = PageQuerySchema.optional().transform((q) => q ?? PageQuerySchema.parse({}));

/** The admin area: the platform's own accounts; the role is checked before the input is read. */
export const adminMonitoringRouter = monitoringRouter({
  procedure: adminProcedure,
  inputs: { scope: noInput, page: inputParser(OptionalPageSchema), item: inputParser(IdParamSchema) },
  scopeOf: async () => PLATFORM_SCOPE,
});

/** A developer's view of one of their projects' end users (`projectId` in every input). */
export const projectMonitoringRouter = monitoringRouter({
  procedure: authedProcedure,
  inputs: {
    scope: inputParser(ProjectIdInputSchema),
    page: inputParser(ProjectIdInputSchema.extend(PageQuerySchema.shape)),
    item: inputParser(ProjectIdInputSchema.extend({ id: IdInputSchema })),
  },
  scopeOf: (ctx, input: { projectId: string }) => projectScopeOf(ctx.deps, ctx.auth.user, input.projectId),
});
