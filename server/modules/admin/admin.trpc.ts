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

export const adminRouter = router({
  stats: adminProcedure.output(AdminStatsSchema).query(({ ctx }) => admin.getStats(ctx.deps, PLATFORM)),
  users: adminProcedure.input(pageInput).output(UserPageSchema).query(({ ctx, input }) => admin.getUsers(ctx.deps, PLATFORM, input)),
  user: adminProcedure.input(idInput).output(UserDetailSchema).query(({ ctx, input }) => admin.getUserDetail(ctx.deps, PLATFORM, input.id)),
  toggleUserActive: adminProcedure
    .input(idInput)
    .output(UserSchema)
    .mutation(({ ctx, input }) => admin.toggleUserActive(ctx.deps, PLATFORM, ctx.auth.user, input.id)),
  unlockUser: adminProcedure.input(idInput).output(UserSchema).mutation(({ ctx, input }) => admin.unlockUser(ctx.deps, PLATFORM, input.id)),
  loginAttempts: adminProcedure.input(pageInput).output(LoginAttemptPageSchema).query(({ ctx, input }) => admin.getLoginAttempts(ctx.deps, PLATFORM, input)),
  devices: adminProcedure.input(pageInput).output(DevicePageSchema).query(({ ctx, input }) => admin.getDevices(ctx.deps, PLATFORM, input)),
  toggleDeviceBlock: adminProcedure.input(idInput).output(DeviceSchema).mutation(({ ctx, input }) => admin.toggleDeviceBlock(ctx.deps, PLATFORM, input.id)),
  toggleDeviceTrust: adminProcedure.input(idInput).output(DeviceSchema).mutation(({ ctx, input }) => admin.toggleDeviceTrust(ctx.deps, PLATFORM, input.id)),
  sessions: adminProcedure.input(pageInput).output(SessionPageSchema).query(({ ctx, input }) => admin.getSessions(ctx.deps, PLATFORM, input)),
  revokeSession: adminProcedure.input(idInput).output(MessageSchema).mutation(({ ctx, input }) => admin.revokeSessionById(ctx.deps, PLATFORM, input.id)),
});

