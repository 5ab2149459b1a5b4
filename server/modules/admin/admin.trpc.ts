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
} from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { inputParser } from '../../lib/validate.js';
import { adminProcedure, router } from '../../trpc/init.js';
import * as admin from './admin.service.js';

const PLATFORM: admin.MonitorScope = { projectId: null };

const pageInput = inputParser(PageQuerySchema.optional().transform((q) => q ?? PageQuerySchema.parse({})));
const idInput = inputParser(IdParamSchema);

/** What each monitoring procedure answers, platform-wide here and per project in projects.trpc.ts. */
export const MONITOR_OUTPUT = {
  stats: AdminStatsSchema,
  users: UserPageSchema,
  user: UserDetailSchema,
  toggleUserActive: UserSchema,
  unlockUser: UserSchema,
  loginAttempts: LoginAttemptPageSchema,
  devices: DevicePageSchema,
  toggleDeviceBlock: DeviceSchema,
  toggleDeviceTrust: DeviceSchema,
  sessions: SessionPageSchema,
  revokeSession: MessageSchema,
} as const;

export const adminRouter = router({
  stats: adminProcedure.output(MONITOR_OUTPUT.stats).query(({ ctx }) => admin.getStats(ctx.deps, PLATFORM)),
  users: adminProcedure.input(pageInput).output(MONITOR_OUTPUT.users).query(({ ctx, input }) => admin.getUsers(ctx.deps, PLATFORM, input)),
  user: adminProcedure.input(idInput).output(MONITOR_OUTPUT.user).query(({ ctx, input }) => admin.getUserDetail(ctx.deps, PLATFORM, input.id)),
  toggleUserActive: adminProcedure
    .input(idInput)
    .output(MONITOR_OUTPUT.toggleUserActive)
    .mutation(({ ctx, input }) => admin.toggleUserActive(ctx.deps, PLATFORM, ctx.auth.user, input.id)),
  unlockUser: adminProcedure.input(idInput).output(MONITOR_OUTPUT.unlockUser).mutation(({ ctx, input }) => admin.unlockUser(ctx.deps, PLATFORM, input.id)),
  loginAttempts: adminProcedure.input(pageInput).output(MONITOR_OUTPUT.loginAttempts).query(({ ctx, input }) => admin.getLoginAttempts(ctx.deps, PLATFORM, input)),
  devices: adminProcedure.input(pageInput).output(MONITOR_OUTPUT.devices).query(({ ctx, input }) => admin.getDevices(ctx.deps, PLATFORM, input)),
  toggleDeviceBlock: adminProcedure.input(idInput).output(MONITOR_OUTPUT.toggleDeviceBlock).mutation(({ ctx, input }) => admin.toggleDeviceBlock(ctx.deps, PLATFORM, input.id)),
  toggleDeviceTrust: adminProcedure.input(idInput).output(MONITOR_OUTPUT.toggleDeviceTrust).mutation(({ ctx, input }) => admin.toggleDeviceTrust(ctx.deps, PLATFORM, input.id)),
  sessions: adminProcedure.input(pageInput).output(MONITOR_OUTPUT.sessions).query(({ ctx, input }) => admin.getSessions(ctx.deps, PLATFORM, input)),
  revokeSession: adminProcedure.input(idInput).output(MONITOR_OUTPUT.revokeSession).mutation(({ ctx, input }) => admin.revokeSessionById(ctx.deps, PLATFORM, input.id)),
});

