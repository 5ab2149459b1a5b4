import { accountRoutes, emailChangeRoutes, passwordChangeRoutes, platformAuthRoutes } from './modules/auth/auth.rest.js';
import { HOSTED_ACCOUNTS, PLATFORM_ACCOUNTS, PROJECT_ACCOUNTS } from './rest/account-mount.js';
import { stepUpRoutes } from './modules/auth/step-up.rest.js';
import { auditRoutes } from './modules/audit/audit.rest.js';
import { mailRoutes } from './modules/mail/mail.rest.js';
import { webhookRoutes } from './modules/webhooks/webhooks.rest.js';
import { machineClientRoutes } from './modules/oidc/machine-clients.rest.js';
import { deviceRoutes } from './modules/oidc/device.rest.js';
import { teamRoutes } from './modules/teams/teams.rest.js';
import { captchaRoutes } from './modules/captcha/captcha.rest.js';
import { healthRoutes } from './modules/health/health.rest.js';
import { mfaRoutes } from './modules/mfa/mfa.rest.js';
import { passkeyRoutes } from './modules/auth/passkeys.rest.js';
import { userExportRoutes } from './modules/user-transfer/export/export.rest.js';
import { ADMIN_MONITORING, monitoringRoutes, PROJECT_MONITORING } from './modules/monitoring/monitoring.rest.js';
import { profileRoutes } from './modules/profile/profile.rest.js';
import { projectsRoutes } from './modules/projects/projects.rest.js';
import { projectSettingsRoutes } from './modules/projects/project-settings.rest.js';
import { hostedFlowRoutes } from './modules/hosted/hosted-flow.rest.js';
import { hostedProjectRoutes } from './modules/hosted/hosted.rest.js';
import { endUserProfileRoutes, publicApiRoutes } from './modules/public-api/public.rest.js';
import { revocationRoutes } from './modules/revocations/revocations.rest.js';
import { ownSessionRoutes } from './modules/auth/own-sessions.rest.js';
import { connectionRoutes, socialRoutes } from './modules/social/social.rest.js';
import { API_KEY_SIDE, DASHBOARD_SIDE, endUserOrganizationRoutes, organizationRoleRoutes, organizationRoutes, userMetadataRoutes, userOrganizationRoutes } from './modules/organizations/organizations.rest.js';
import { hostedSsoRoutes, ssoConnectionRoutes, ssoSignInRoutes } from './modules/sso/sso.rest.js';
import { adminPortalLinkRoutes, adminPortalRoutes } from './modules/sso/admin-portal.rest.js';
import { switchOrganizationRoutes } from './modules/auth/switch-organization.rest.js';
import { hostedPasswordlessRoutes, platformPasswordlessRoutes, publicPasswordlessRoutes } from './modules/passwordless/passwordless.rest.js';
import { openApiRoute } from './openapi/openapi.rest.js';
import { USER_TRANSFER_ROUTES } from './modules/user-transfer/user-transfer.rest.js';
import { z } from 'zod';
import { UnvalidatedParam, type AnyRoute } from './rest/route.js';

/** Every REST route the server answers, in the order the OpenAPI document lists them. */
export const REST_ROUTES: readonly AnyRoute[] = [
  ...healthRoutes,
  openApiRoute(() => REST_ROUTES),
  ...accountRoutes(PLATFORM_ACCOUNTS),
  ...platformAuthRoutes,
  ...platformPasswordlessRoutes,
  ...passwordChangeRoutes(PLATFORM_ACCOUNTS),
  ...emailChangeRoutes(PLATFORM_ACCOUNTS),
  ...stepUpRoutes(PLATFORM_ACCOUNTS),
  ...mfaRoutes(PLATFORM_ACCOUNTS),
  ...passkeyRoutes(PLATFORM_ACCOUNTS),
  ...ownSessionRoutes(PLATFORM_ACCOUNTS),
  ...socialRoutes(PLATFORM_ACCOUNTS),
  ...profileRoutes,
  ...captchaRoutes,
  ...monitoringRoutes(ADMIN_MONITORING),
  ...projectsRoutes,
  ...teamRoutes,
  ...projectSettingsRoutes,
  ...connectionRoutes,
  ...webhookRoutes,
  ...machineClientRoutes,
  ...monitoringRoutes(PROJECT_MONITORING),
  ...userExportRoutes,
  ...USER_TRANSFER_ROUTES,
  ...organizationRoutes(DASHBOARD_SIDE),
  ...organizationRoleRoutes,
  ...userOrganizationRoutes,
  ...ssoConnectionRoutes,
  ...adminPortalLinkRoutes,
  ...auditRoutes,
  ...mailRoutes,
  ...publicApiRoutes,
  ...ssoSignInRoutes,
  ...adminPortalRoutes,
  ...publicPasswordlessRoutes,
  ...revocationRoutes,
  ...userMetadataRoutes,
  ...organizationRoutes(API_KEY_SIDE),
  ...endUserOrganizationRoutes(PROJECT_ACCOUNTS),
  ...switchOrganizationRoutes(PROJECT_ACCOUNTS),
  ...hostedRoutes(),
];

/**
 * The browser API of each project's hosted pages (/hosted/{project_key}/api/v1): the same account
 * routes in the project's realm, with the hosted pages' own cookies. Documented under their own tag
 * and operation ids; apps reach their end users through OpenID Connect or the public API instead.
 */
function hostedRoutes(): AnyRoute[] {
  // The routes that mail a link or use one have hosted versions of their own, which carry the app's sign-in along.
  const ownVersion = (route: AnyRoute) => hostedFlowRoutes.some((own) => own.method === route.method && own.url === route.url);
  const routes = [
    ...hostedProjectRoutes,
    ...hostedFlowRoutes,
    ...deviceRoutes,
    ...hostedPasswordlessRoutes,
    ...accountRoutes(HOSTED_ACCOUNTS).filter((route) => !ownVersion(route)),
    ...passwordChangeRoutes(HOSTED_ACCOUNTS),
    ...emailChangeRoutes(HOSTED_ACCOUNTS),
    ...stepUpRoutes(HOSTED_ACCOUNTS),
    ...endUserProfileRoutes(HOSTED_ACCOUNTS),
    ...endUserOrganizationRoutes(HOSTED_ACCOUNTS),
    ...switchOrganizationRoutes(HOSTED_ACCOUNTS),
    ...mfaRoutes(HOSTED_ACCOUNTS),
    ...passkeyRoutes(HOSTED_ACCOUNTS),
    ...ownSessionRoutes(HOSTED_ACCOUNTS),
    ...socialRoutes(HOSTED_ACCOUNTS),
    ...hostedSsoRoutes,
  ];
  return routes.map((route) => ({
    ...route,
    params: z.object({ project_key: UnvalidatedParam, ...route.params?.shape }),
    doc: {
      ...route.doc,
      operationId: route.doc.operationId.replace(/^public(?=[A-Z])/, 'hosted'),
      tag: 'Hosted pages',
      headers: undefined,
    },
  }));
}
