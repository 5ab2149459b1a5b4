import { DeleteAccountInputSchema, UpdateProfileInputSchema } from '../../../shared/schemas/auth.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { inputParser } from '../../lib/validate.js';
import { clearAuthCookies } from '../../plugins/auth-cookies.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { deleteAccount, updateProfile } from './profile.service.js';

export const profileRouter = router({
  update: authedProcedure
    .input(inputParser(UpdateProfileInputSchema))
    .output(UserSchema)
    .mutation(({ ctx, input }) => updateProfile(ctx.deps, ctx.auth.user, input)),
});

/** Account procedures the client calls under `auth.*` (merged there in trpc/router.ts) that belong to this area. */
export const accountRouter = router({
  deleteAccount: authedProcedure.input(inputParser(DeleteAccountInputSchema)).output(MessageSchema).mutation(async ({ ctx, input }) => {
    const result = await deleteAccount(ctx.deps, ctx.auth, input, ctx.request);
    clearAuthCookies(ctx.res, ctx.deps.config);
    return result;
  }),
});
