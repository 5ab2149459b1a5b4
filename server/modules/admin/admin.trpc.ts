import { IdParamSchema, PageQuerySchema } from '../../../shared/schemas/admin.js';
import { inputParser } from '../../lib/validate.js';
import { adminProcedure, router } from '../../trpc/init.js';
import * as admin from './admin.service.js';

const PLATFORM: admin.MonitorScope = { projectId: null };

const pageInput = inputParser(PageQuerySchema.optional().transform((q) => q ?? PageQuerySchema.parse({})));
const idInput = inputParser(IdParamSchema);

export const adminRouter = router({
  stats: adminProcedure.query(({ ctx }) => admin.getStats(ctx.deps, PLATFORM)),
  users: adminProcedure.input(pageInput).query(({ ctx, input }) => admin.getUsers(ctx.deps, PLATFORM, input)),
  user: adminProcedure.input(idInput).query(({ ctx, input }) => admin.getUserDetail(ctx.deps, PLATFORM, input.id)),
  toggleUserActive: adminProcedure.input(idInput).mutation(({ ctx, input }) => admin.toggleUserActive(ctx.deps, PLATFORM, ctx.auth.user, input.id)),
  unlockUser: adminProcedure.input(idInput).mutation(({ ctx, input }) => admin.unlockUser(ctx.deps, PLATFORM, input.id)),
  loginAttempts: adminProcedure.input(pageInput).query(({ ctx, input }) => admin.getLoginAttempts(ctx.deps, PLATFORM, input)),
  devices: adminProcedure.input(pageInput).query(({ ctx, input }) => admin.getDevices(ctx.deps, PLATFORM, input)),
  toggleDeviceBlock: adminProcedure.input(idInput).mutation(({ ctx, input }) => admin.toggleDeviceBlock(ctx.deps, PLATFORM, input.id)),
  toggleDeviceTrust: adminProcedure.input(idInput).mutation(({ ctx, input }) => admin.toggleDeviceTrust(ctx.deps, PLATFORM, input.id)),
  sessions: adminProcedure.input(pageInput).query(({ ctx, input }) => admin.getSessions(ctx.deps, PLATFORM, input)),
  revokeSession: adminProcedure.input(idInput).mutation(({ ctx, input }) => admin.revokeSessionById(ctx.deps, PLATFORM, input.id)),
});

