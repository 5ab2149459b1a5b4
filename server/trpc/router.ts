import { adminAuditRouter, projectAuditRouter } from '../modules/audit/audit.trpc.js';
import { adminMailRouter, localMailRouter, projectMailRouter } from '../modules/mail/mail.trpc.js';
import { authRouter } from '../modules/auth/auth.trpc.js';
import { captchaRouter } from '../modules/captcha/captcha.trpc.js';
import { mfaRouter } from '../modules/mfa/mfa.trpc.js';
import { passkeysRouter } from '../modules/passkeys/passkeys.trpc.js';
import { adminMonitoringRouter, projectMonitoringRouter } from '../modules/monitoring/monitoring.trpc.js';
import { accountRouter, profileRouter } from '../modules/profile/profile.trpc.js';
import { projectsRouter } from '../modules/projects/projects.trpc.js';
import { projectSettingsRouter } from '../modules/projects/project-settings.trpc.js';
import { ownSessionsRouter } from '../modules/sessions/sessions.trpc.js';
import { socialRouter } from '../modules/social/social.trpc.js';
import { teamsRouter } from '../modules/teams/teams.trpc.js';
import { mergeRouters, router } from './init.js';

/** Each area's procedures, under the names the client calls them by. */
export const appRouter = router({
  auth: mergeRouters(authRouter, accountRouter, ownSessionsRouter),
  mfa: mfaRouter,
  passkeys: passkeysRouter,
  social: socialRouter,
  teams: teamsRouter,
  profile: profileRouter,
  captcha: captchaRouter,
  admin: mergeRouters(adminMonitoringRouter, adminAuditRouter, adminMailRouter),
  localMail: localMailRouter,
  projectSettings: projectSettingsRouter,
  projects: mergeRouters(projectsRouter, router({ monitor: projectMonitoringRouter }), projectAuditRouter, projectMailRouter),
});

export type AppRouter = typeof appRouter;
