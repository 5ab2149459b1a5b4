import { adminAuditRoutes, projectAuditRoutes } from '../modules/audit/audit.rest.js';
import { accountRoutes, emailChangeRoutes, passwordChangeRoutes, platformAuthRoutes } from '../modules/auth/auth.rest.js';
import { stepUpRoutes } from '../modules/auth/step-up.rest.js';
import { captchaRoutes } from '../modules/captcha/captcha.rest.js';
import { adminMailRoutes, localMailRoutes, projectMailRoutes } from '../modules/mail/mail.rest.js';
import { mfaRoutes } from '../modules/mfa/mfa.rest.js';
import { ADMIN_MONITORING, monitoringRoutes, PROJECT_MONITORING } from '../modules/monitoring/monitoring.rest.js';
import { passkeyRoutes } from '../modules/auth/passkeys.rest.js';
import { platformPasswordlessRoutes } from '../modules/passwordless/passwordless.rest.js';
import { profileRoutes } from '../modules/profile/profile.rest.js';
import { projectSettingsRoutes } from '../modules/projects/project-settings.rest.js';
import { projectsRoutes } from '../modules/projects/projects.rest.js';
import { ownSessionRoutes } from '../modules/auth/own-sessions.rest.js';
import { connectionRoutes, socialRoutes } from '../modules/social/social.rest.js';
import { teamRoutes } from '../modules/teams/teams.rest.js';
import { DASHBOARD_SIDE, organizationRoleRoutes, organizationRoutes, userOrganizationRoutes } from '../modules/organizations/organizations.rest.js';
import { ssoConnectionRoutes } from '../modules/sso/sso.rest.js';
import { adminPortalLinkRoutes } from '../modules/sso/admin-portal.rest.js';
import { PLATFORM_ACCOUNTS } from '../rest/account-mount.js';
import { mergeRouters, router } from './init.js';
import { routerOf } from './procedures.js';

/**
 * The dashboard's procedures, under the names the client calls them by: each is a REST route
 * declared with a `procedure` name (server/routes.ts lists every route), so both transports share one
 * declaration, its access rule and its handler.
 */
export const appRouter = router({
  auth: routerOf([
    ...accountRoutes(PLATFORM_ACCOUNTS),
    ...platformAuthRoutes,
    ...platformPasswordlessRoutes,
    ...passwordChangeRoutes(PLATFORM_ACCOUNTS),
    ...emailChangeRoutes(PLATFORM_ACCOUNTS),
    ...stepUpRoutes(PLATFORM_ACCOUNTS),
    ...ownSessionRoutes(PLATFORM_ACCOUNTS),
  ]),
  mfa: routerOf(mfaRoutes(PLATFORM_ACCOUNTS)),
  passkeys: routerOf(passkeyRoutes(PLATFORM_ACCOUNTS)),
  social: routerOf([...socialRoutes(PLATFORM_ACCOUNTS), ...connectionRoutes]),
  teams: routerOf(teamRoutes),
  profile: routerOf(profileRoutes),
  captcha: routerOf(captchaRoutes),
  admin: routerOf([...monitoringRoutes(ADMIN_MONITORING), ...adminAuditRoutes, ...adminMailRoutes]),
  localMail: routerOf(localMailRoutes),
  projectSettings: routerOf(projectSettingsRoutes),
  sso: routerOf([...ssoConnectionRoutes, ...adminPortalLinkRoutes]),
  organizations: routerOf([...organizationRoutes(DASHBOARD_SIDE), ...organizationRoleRoutes, ...userOrganizationRoutes]),
  projects: mergeRouters(routerOf([...projectsRoutes, ...projectAuditRoutes, ...projectMailRoutes]), router({ monitor: routerOf(monitoringRoutes(PROJECT_MONITORING)) })),
});

export type AppRouter = typeof appRouter;
