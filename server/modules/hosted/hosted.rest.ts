import { CaptchaConfigSchema } from '../../../shared/schemas/auth.js';
import { HostedProjectSchema } from '../../../shared/schemas/hosted.js';
import { defineRoute, HOSTED } from '../../rest/route.js';
import { appHomeOf } from '../projects/projects.service.js';
import { hostedOverridesOf } from '../../../shared/i18n/overrides.js';
import { effectiveSignInMethods } from '../realms/sign-in-methods.js';

/** What the hosted pages need of their project before anyone signs in: its name and branding (404 unknown, 403 inactive). */
export const hostedProjectRoutes = [
  defineRoute({
    method: 'GET',
    url: '/hosted/:project_key/api/v1/project',
    access: HOSTED,
    response: { 200: HostedProjectSchema },
    doc: { operationId: 'hostedGetProject', tag: 'Hosted pages', summary: "The hosted pages' project and branding" },
    handler: async ({ caller }) => {
      const { name, project_key, logo_url, accent_color, website_url } = caller.project;
      return {
        name,
        project_key,
        logo_url,
        accent_color,
        website_url,
        app_url: appHomeOf(caller.project),
        string_overrides: hostedOverridesOf(caller.realm.policy.mail.stringOverrides),
        sign_in_methods: effectiveSignInMethods(caller.realm.policy.signInMethods, []),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/hosted/:project_key/api/v1/captcha/config',
    access: HOSTED,
    response: { 200: CaptchaConfigSchema },
    doc: {
      operationId: 'hostedGetCaptchaConfig',
      tag: 'Hosted pages',
      summary: 'Which captcha the hosted forms must show',
      description: "The project's own captcha when it set one in its settings; none when it chose `none`; else the platform's.",
    },
    handler: async ({ caller }) => caller.realm.policy.captcha.config(),
  }),
];
