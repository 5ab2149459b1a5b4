import { publicProcedure, router } from '../../trpc/init.js';

export const captchaRouter = router({
  config: publicProcedure.query(({ ctx }) => ctx.deps.captcha.config()),
});
