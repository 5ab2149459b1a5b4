import { z } from 'zod';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { MailPreviewInputSchema, MailPreviewSchema, ProjectSettingsSchema, UpdateProjectSettingsInputSchema } from '../../../shared/schemas/project-settings.js';
import { defineRoute, UnvalidatedParam, TEAM } from '../../rest/route.js';
import * as settings from './project-settings.service.js';

const ProjectParams = z.object({ id: UnvalidatedParam });
const BASE = '/api/v1/projects/:id/settings';

/** A project's rules for its end users: anyone on the team reads them, an admin changes and previews. */
export const projectSettingsRoutes = [
  defineRoute({
    method: 'GET',
    url: BASE,
    procedure: 'get',
    access: TEAM,
    params: ProjectParams,
    response: { 200: ProjectSettingsSchema },
    doc: {
      operationId: 'getProjectSettings',
      tag: 'Projects',
      summary: "The project's rules for its end users",
      description:
        "Each rule as it applies now: the platform's (`PASSWORD_MIN_LENGTH`, the common-password check, `ACCESS_TOKEN_TTL`, `REFRESH_TOKEN_TTL`, `BLOCK_VPN`, unverified end users may sign in; mails in the project's own name, colour and logo with a \"Secured by\" line) until the project sets its own. The captcha secret is never answered (`captcha_secret_set`).",
    },
    handler: ({ deps, caller, params }) => settings.getProjectSettings(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    url: BASE,
    procedure: 'update',
    access: TEAM,
    params: ProjectParams,
    body: UpdateProjectSettingsInputSchema,
    response: { 200: ProjectSettingsSchema },
    doc: {
      operationId: 'updateProjectSettings',
      tag: 'Projects',
      summary: "Change the project's rules for its end users (fields left out stay as they are)",
      description:
        "Applies at once to the public API, the hosted pages and the OpenID Connect provider: the password rules to sign-up, reset and change; the lifetimes to new tokens (`expires_in`, `exp`, the hosted pages' cookies, sessions); the captcha (`turnstile`, `hcaptcha` or `recaptcha`, with its site key and secret) to sign-up, sign-in, resend and forgot-password on the public API and the hosted pages (with `platform`, the public API asks for none and the hosted pages show the platform's, if it has one; with `none`, neither asks for one); `vpn_policy` and `allow_unverified_sign_in` to sign-ins; the mail names, colour and templates (placeholders `{{product_name}}`, `{{email}}`, `{{link}}`; verification and reset templates must contain `{{link}}`; `null` restores the built-in mail) to the verification, reset and notice mails. Needs the admin role (403). Recorded in the audit log (`settings.updated`). At most 30 changes a minute per developer (429).",
      errors: [403, 404, 429],
    },
    handler: ({ deps, caller, params, body }) => settings.updateProjectSettings(deps, caller.session.user, params.id, body, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: `${BASE}/mail-preview`,
    procedure: 'previewMail',
    access: TEAM,
    params: ProjectParams,
    body: MailPreviewInputSchema,
    response: { 200: MailPreviewSchema },
    doc: {
      operationId: 'previewProjectMail',
      tag: 'Projects',
      summary: 'Render one of the project’s mails exactly as it is sent, to your own address',
      description:
        'The subject, text and HTML that sending this mail to your address would send (the same templates, brand and link target; `sample-token` for the token), with the unsaved names, colour, "Secured by" choice and template of the body over the saved settings. Nothing is sent. Needs the admin role (403).',
      errors: [403, 404],
    },
    handler: ({ deps, caller, params, body }) => settings.previewProjectMail(deps, caller.session.user, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    url: `${BASE}/mail-test`,
    procedure: 'sendTestMail',
    access: TEAM,
    params: ProjectParams,
    body: MailPreviewInputSchema,
    response: { 200: MessageSchema },
    doc: {
      operationId: 'sendProjectTestMail',
      tag: 'Projects',
      summary: 'Send the previewed mail to your own address',
      description: 'The mail mail-preview renders, sent to the signed-in developer. Needs the admin role (403); at most 5 a minute per developer (429).',
      errors: [403, 404, 429],
    },
    handler: ({ deps, caller, params, body }) => settings.sendTestMail(deps, caller.session.user, params.id, body),
  }),
];
