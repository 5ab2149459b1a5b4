import { CaptchaConfigSchema } from '../../../shared/schemas/auth.js';
import { publicProcedure, router } from '../../trpc/init.js';

export const captchaRouter = router({
  config: publicProcedure.output(CaptchaConfigSchema).query(({ ctx }) => ctx.deps.captcha.config()),
});
