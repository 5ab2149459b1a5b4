import { UpdateProfileInputSchema } from '../../../shared/schemas/auth.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { inputParser } from '../../lib/validate.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { updateProfile } from './profile.service.js';

export const profileRouter = router({
  update: authedProcedure
    .input(inputParser(UpdateProfileInputSchema))
    .output(UserSchema)
    .mutation(({ ctx, input }) => updateProfile(ctx.deps, ctx.auth.user, input)),
});
