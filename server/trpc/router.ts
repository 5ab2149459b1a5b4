import { adminRouter } from '../modules/admin/admin.trpc.js';
import { authRouter } from '../modules/auth/auth.trpc.js';
import { captchaRouter } from '../modules/captcha/captcha.trpc.js';
import { profileRouter } from '../modules/profile/profile.trpc.js';
import { projectsRouter } from '../modules/projects/projects.trpc.js';
import { router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  profile: profileRouter,
  captcha: captchaRouter,
  admin: adminRouter,
  projects: projectsRouter,
});

export type AppRouter = typeof appRouter;
