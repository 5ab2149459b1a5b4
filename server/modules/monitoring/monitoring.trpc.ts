import {
  AdminStatsSchema,
  DevicePageSchema,
  DeviceSchema,
  IdParamSchema,
  LoginAttemptPageSchema,
  DeviceListQuerySchema,
  LoginAttemptListQuerySchema,
  SessionListQuerySchema,
  SessionPageSchema,
  UserListQuerySchema,
  UserDetailSchema,
  UserPageSchema,
} from '../../../shared/schemas/admin.js';
import type { z } from 'zod';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { inputParser, noInput, type InputParser } from '../../lib/validate.js';
import { adminProcedure, authedProcedure, projectProcedure, router, type Context } from '../../trpc/init.js';
import { IdInputSchema, ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import { projectScopeOf, roleForReading } from '../projects/project-access.js';
import { PLATFORM_SCOPE, type MonitorScope } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import type { AuditActor } from '../audit/audit.service.js';
import * as monitoring from './monitoring.service.js';

type AuthedContext = Context & { auth: Authenticated };

const actorOf = (ctx: AuthedContext): AuditActor => ({ user: ctx.auth.user, info: ctx.request });

/** A list's input on a mount: the admin area's is the list's query (optional), a project's adds `projectId`. */
type ListIn<K extends MountKind, Q extends z.ZodObject> = K extends 'admin' ? z.input<Q> | undefined : z.input<Q> & { projectId: string };
type ListOut<K extends MountKind, Q extends z.ZodObject> = K extends 'admin' ? z.output<Q> : z.output<Q> & { projectId: string };
type MountKind = 'admin' | 'project';

/** How one mount of the monitoring router reads its input and finds its scope. */
interface MonitoringMount<K extends MountKind, SIn, S, IIn, I extends { id: string }> {
  /** Checks the caller (and role) before any input is read. */
  procedure: typeof authedProcedure;
  /** The input of a procedure on the whole scope and of one item. */
  inputs: { scope: InputParser<SIn, S>; item: InputParser<IIn, I> };
  /** The input of a list: its paging and filters. */
  list<Q extends z.ZodObject>(query: Q): InputParser<ListIn<K, Q>, ListOut<K, Q>>;
  /** The accounts the caller may watch (`reads`) or change, once the input is read. */
  scopeOf(ctx: AuthedContext, input: S | I | ListOut<K, z.ZodObject>, reads: boolean): Promise<MonitorScope>;
}

/** The monitoring procedures, written once and mounted as `admin.*` and as `projects.monitor.*`. */
function monitoringRouter<K extends MountKind, SIn, S, IIn, I extends { id: string }>(mount: MonitoringMount<K, SIn, S, IIn, I>) {
  const within = <TIn, T extends S | I | ListOut<K, z.ZodObject>>(input: InputParser<TIn, T>) =>
    mount.procedure.input(input).use(async ({ ctx, input, type, next }) => next({ ctx: { ...ctx, scope: await mount.scopeOf(ctx, input, type === 'query') } }));
  const { scope, item } = mount.inputs;
  return router({
    stats: within(scope).output(AdminStatsSchema).query(({ ctx }) => monitoring.getStats(ctx.deps, ctx.scope)),
    users: within(mount.list(UserListQuerySchema)).output(UserPageSchema).query(({ ctx, input }) => monitoring.getUsers(ctx.deps, ctx.scope, input)),
    user: within(item).output(UserDetailSchema).query(({ ctx, input }) => monitoring.getUserDetail(ctx.deps, ctx.scope, input.id)),
    toggleUserActive: within(item)
      .output(UserSchema)
      .mutation(({ ctx, input }) => monitoring.toggleUserActive(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    deleteUser: within(item).output(MessageSchema).mutation(({ ctx, input }) => monitoring.deleteUserById(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    unlockUser: within(item).output(UserSchema).mutation(({ ctx, input }) => monitoring.unlockUser(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    resetUserMfa: within(item).output(UserSchema).mutation(({ ctx, input }) => monitoring.resetUserMfa(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    loginAttempts: within(mount.list(LoginAttemptListQuerySchema)).output(LoginAttemptPageSchema).query(({ ctx, input }) => monitoring.getLoginAttempts(ctx.deps, ctx.scope, input)),
    devices: within(mount.list(DeviceListQuerySchema)).output(DevicePageSchema).query(({ ctx, input }) => monitoring.getDevices(ctx.deps, ctx.scope, input)),
    toggleDeviceBlock: within(item).output(DeviceSchema).mutation(({ ctx, input }) => monitoring.toggleDeviceBlock(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    toggleDeviceTrust: within(item).output(DeviceSchema).mutation(({ ctx, input }) => monitoring.toggleDeviceTrust(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
    sessions: within(mount.list(SessionListQuerySchema)).output(SessionPageSchema).query(({ ctx, input }) => monitoring.getSessions(ctx.deps, ctx.scope, input)),
    revokeSession: within(item).output(MessageSchema).mutation(({ ctx, input }) => monitoring.revokeSessionById(ctx.deps, ctx.scope, actorOf(ctx), input.id)),
  });
}

/** The admin area: the platform's own accounts; the role is checked before the input is read. */
export const adminMonitoringRouter = monitoringRouter<'admin', void, void, z.input<typeof IdParamSchema>, z.output<typeof IdParamSchema>>({
  procedure: adminProcedure,
  inputs: { scope: noInput, item: inputParser(IdParamSchema) },
  list: (query) => inputParser(query.optional().transform((q) => q ?? query.parse({}))) as never,
  scopeOf: async () => PLATFORM_SCOPE,
});

/** A developer's view of one of their projects' end users (`projectId` in every input). */
const ProjectItemSchema = ProjectIdInputSchema.extend({ id: IdInputSchema });

export const projectMonitoringRouter = monitoringRouter<
  'project',
  z.input<typeof ProjectIdInputSchema>,
  z.output<typeof ProjectIdInputSchema>,
  z.input<typeof ProjectItemSchema>,
  z.output<typeof ProjectItemSchema>
>({
  procedure: projectProcedure(),
  inputs: { scope: inputParser(ProjectIdInputSchema), item: inputParser(ProjectItemSchema) },
  list: (query) => inputParser(ProjectIdInputSchema.extend(query.shape)) as never,
  scopeOf: (ctx, input, reads) => projectScopeOf(ctx.deps, ctx.auth.user, (input as { projectId: string }).projectId, roleForReading(reads)),
});
