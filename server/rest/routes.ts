import { accountRoutes, emailChangeRoutes, PLATFORM_ACCOUNTS, platformAuthRoutes } from '../modules/auth/auth.rest.js';
import { captchaRoutes } from '../modules/captcha/captcha.rest.js';
import { healthRoutes } from '../modules/health/health.rest.js';
import { mfaRoutes } from '../modules/mfa/mfa.rest.js';
import { passkeyRoutes } from '../modules/passkeys/passkeys.rest.js';
import { ADMIN_MONITORING, monitoringRoutes, PROJECT_MONITORING } from '../modules/monitoring/monitoring.rest.js';
import { profileRoutes } from '../modules/profile/profile.rest.js';
import { projectsRoutes } from '../modules/projects/projects.rest.js';
import { publicApiRoutes } from '../modules/public-api/public.rest.js';
import { ownSessionRoutes } from '../modules/sessions/sessions.rest.js';
import { openApiRoute } from '../openapi/openapi.rest.js';
import type { AnyRoute } from './route.js';

/** Every REST route the server answers, in the order the OpenAPI document lists them. */
export const REST_ROUTES: readonly AnyRoute[] = [
  ...healthRoutes,
  openApiRoute(() => REST_ROUTES),
  ...accountRoutes(PLATFORM_ACCOUNTS),
  ...platformAuthRoutes,
  ...emailChangeRoutes(PLATFORM_ACCOUNTS),
  ...mfaRoutes(PLATFORM_ACCOUNTS),
  ...passkeyRoutes(PLATFORM_ACCOUNTS),
  ...ownSessionRoutes(PLATFORM_ACCOUNTS),
  ...profileRoutes,
  ...captchaRoutes,
  ...monitoringRoutes(ADMIN_MONITORING),
  ...projectsRoutes,
  ...monitoringRoutes(PROJECT_MONITORING),
  ...publicApiRoutes,
];
