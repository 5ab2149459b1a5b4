import { BrowserSignInSchema, LogInAnswerSchema } from '../../../shared/schemas/auth.js';
import { SignInMethodsSchema } from '../../../shared/schemas/project-settings.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  EmailCodeInputSchema,
  EmailCodeVerifyInputSchema,
  HostedMagicLinkInputSchema,
  MagicLinkAnswerSchema,
  MagicLinkInputSchema,
  MagicLinkOpenInputSchema,
} from '../../../shared/schemas/passwordless.js';
import { HOSTED_COOKIES, PLATFORM_COOKIES } from '../../plugins/auth-cookies.js';
import { accountMountOf, PLATFORM_ACCOUNTS } from '../../rest/account-mount.js';
import { EndUserHeadersSchema } from '../../rest/end-user-headers.js';
import { API_KEY, defineRoute, HOSTED } from '../../rest/route.js';
import { continuationFrom } from '../hosted/continuation.service.js';
import { flowBindingOf, presentedFlowBinding } from '../hosted/flow-cookie.js';
import { sendEmailCode, verifyEmailCode } from './email-code.service.js';
import { openMagicLink, sendMagicLink } from './magic-link.service.js';
import { effectiveSignInMethods } from '../realms/sign-in-methods.js';

const DISABLED = 'The project turned this sign-in method off: 403 {"detail": "This sign-in method is disabled"}.';

/** Sign-in by a mailed code or magic link, for a developer's backend (X-API-Key). */
export const publicPasswordlessRoutes = [
  defineRoute({
    method: 'POST',
    url: '/public/api/v1/auth/email-code',
    access: API_KEY,
    body: EmailCodeInputSchema,
    response: { 200: MessageSchema },
    doc: {
      tag: 'Public API',
      headers: EndUserHeadersSchema,
      operationId: 'publicSendEmailCode',
      summary: 'Mail an end user a 6-digit sign-in code',
      description: `The code works for 10 minutes, 5 tries, once; a new code ends the earlier one. The same answer whether or not the address has an account (an address without one signs up with the code). ${DISABLED}`,
      errors: [403, 429],
    },
    handler: async ({ deps, caller, body }) => sendEmailCode(deps, caller.realm, body, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/public/api/v1/auth/email-code/verify',
    access: API_KEY,
    body: EmailCodeVerifyInputSchema,
    response: { 200: LogInAnswerSchema },
    doc: {
      tag: 'Public API',
      headers: EndUserHeadersSchema,
      operationId: 'publicVerifyEmailCode',
      summary: 'Sign an end user in with the mailed code',
      description: `The same answer as /public/api/v1/auth/login: tokens, or with two factors on the challenge for /public/api/v1/auth/mfa/verify. An address without an account gets a verified one. A wrong, spent or expired code: 401. ${DISABLED}`,
      errors: [401, 403, 429],
    },
    handler: async ({ deps, caller, body }) => verifyEmailCode(deps, caller.realm, body, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/public/api/v1/auth/magic-link',
    access: API_KEY,
    body: MagicLinkInputSchema,
    response: { 200: MessageSchema },
    doc: {
      tag: 'Public API',
      headers: EndUserHeadersSchema,
      operationId: 'publicSendMagicLink',
      summary: 'Mail an end user a one-time sign-in link',
      description: `The link (15 minutes, once) opens the project's hosted page, which asks the person to confirm and then redirects to \`redirect_uri\` (one of the project's registered redirect URIs) with \`code\` and your \`state\`: exchange the code (60 s, once) at /public/api/v1/auth/oauth/exchange. The same answer whether or not the address has an account. ${DISABLED}`,
      errors: [400, 403, 429],
    },
    handler: async ({ deps, caller, body }) =>
      sendMagicLink(deps, caller, body, { kind: 'api', redirectUri: body.redirect_uri, state: body.state ?? null }, caller.info),
  }),
];

/** The hosted pages' versions: the session lands in their cookies, and a link goes on with the app sign-in the page served. */
export const hostedPasswordlessRoutes = [
  defineRoute({
    method: 'POST',
    url: '/hosted/:project_key/api/v1/auth/email-code',
    access: HOSTED,
    body: EmailCodeInputSchema,
    response: { 200: MessageSchema },
    doc: { tag: 'Hosted pages', operationId: 'hostedSendEmailCode', summary: 'Mail a 6-digit sign-in code', errors: [403, 429] },
    handler: async ({ deps, caller, body }) => sendEmailCode(deps, caller.realm, body, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/hosted/:project_key/api/v1/auth/email-code/verify',
    access: HOSTED,
    body: EmailCodeVerifyInputSchema,
    response: { 200: LogInAnswerSchema },
    doc: { tag: 'Hosted pages', operationId: 'hostedVerifyEmailCode', summary: 'Sign in with the mailed code (sets the session cookies)', errors: [401, 403, 429] },
    async handler({ deps, caller, body, request, reply }) {
      const result = await verifyEmailCode(deps, caller.realm, body, caller.info);
      if (!('mfa_required' in result)) HOSTED_COOKIES.set(reply, request, deps.config, result, caller.realm.policy);
      return result;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/hosted/:project_key/api/v1/auth/magic-link',
    access: HOSTED,
    body: HostedMagicLinkInputSchema,
    response: { 200: MessageSchema },
    doc: {
      tag: 'Hosted pages',
      operationId: 'hostedSendMagicLink',
      summary: 'Mail a one-time sign-in link that goes on with the app sign-in the page serves',
      description: 'Opened in this browser, the link signs in at once; in another, its page asks to confirm first.',
      errors: [403, 429],
    },
    handler: async ({ deps, caller, body, request, reply }) => {
      // Always bound: the link must know the browser that asked even when it continues no app sign-in.
      const binding = flowBindingOf(request, reply, deps.config);
      const continuation = await continuationFrom(deps, caller, body, () => binding);
      return sendMagicLink(deps, caller, body, { kind: 'hosted', continuation: { ...continuation, flowBinding: binding } }, caller.info);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/hosted/:project_key/api/v1/auth/magic-link/open',
    access: HOSTED,
    body: MagicLinkOpenInputSchema,
    response: { 200: MagicLinkAnswerSchema },
    doc: {
      tag: 'Hosted pages',
      operationId: 'hostedOpenMagicLink',
      summary: 'Use a mailed sign-in link',
      description:
        'In the browser that asked, signs in (next.kind signed_in or second_factor). Elsewhere, or for a link the public API asked for, answers next.kind confirm with the address until the call is repeated with `confirm: true`; a public API link then answers next.kind redirect: the app\'s redirect URI with its one-time code.',
      errors: [400, 403, 429],
    },
    async handler({ deps, caller, body, request, reply }) {
      const outcome = await openMagicLink(deps, caller, body, presentedFlowBinding(request), caller.info);
      if (outcome.signedIn) HOSTED_COOKIES.set(reply, request, deps.config, outcome.signedIn, caller.realm.policy);
      return outcome.answer;
    },
  }),
];

const PLATFORM = accountMountOf(PLATFORM_ACCOUNTS);

/**
 * The developers' own sign-in by a mailed code, on the dashboard's sign-in page: the same service as
 * the projects' (a code of the platform's realm), answering what the password sign-in answers. No
 * account is made by a code (developers sign up with a password): an unknown address is mailed nothing.
 */
export const platformPasswordlessRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/auth/sign-in-methods',
    procedure: 'signInMethods',
    access: PLATFORM.anonymous,
    response: { 200: SignInMethodsSchema },
    doc: {
      tag: 'Auth',
      operationId: 'getSignInMethods',
      summary: "The ways developers may sign in (the dashboard's sign-in page offers these)",
      description: '`email_code` is on unless the platform set PLATFORM_EMAIL_CODE=off; `connections` is empty (GET /api/v1/auth/oauth/providers lists the providers).',
    },
    handler: async ({ caller }) => effectiveSignInMethods(caller.realm.policy.signInMethods, []),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/auth/email-code',
    procedure: 'sendEmailCode',
    access: PLATFORM.anonymous,
    body: EmailCodeInputSchema,
    response: { 200: MessageSchema },
    doc: {
      tag: 'Auth',
      operationId: 'sendEmailCode',
      summary: 'Mail a developer a 6-digit sign-in code',
      description:
        'The code works for 10 minutes, 5 tries, once; a new code ends the earlier one. The same answer whether or not the address has an account (an address without one is mailed nothing: developers sign up with a password). Needs the captcha when one is configured. 403 when the platform turned it off (PLATFORM_EMAIL_CODE=off).',
      errors: [400, 403, 429],
    },
    handler: async ({ deps, caller, body }) => sendEmailCode(deps, caller.realm, body, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/auth/email-code/verify',
    procedure: 'verifyEmailCode',
    browserResponse: BrowserSignInSchema,
    access: PLATFORM.anonymous,
    body: EmailCodeVerifyInputSchema,
    response: { 200: LogInAnswerSchema },
    doc: {
      tag: 'Auth',
      operationId: 'verifyEmailCode',
      summary: 'Sign in with the mailed code',
      description:
        'The same answer as POST /api/v1/auth/login: the tokens in the body and as HttpOnly cookies, or with two factors on {mfa_required, mfa_token, methods} for POST /api/v1/auth/mfa/verify. A wrong, spent or expired code: 401. 403 when the platform turned it off.',
      errors: [401, 403, 429],
    },
    async handler({ deps, caller, body, request, reply }) {
      const result = await verifyEmailCode(deps, caller.realm, body, caller.info);
      if (!('mfa_required' in result)) PLATFORM_COOKIES.set(reply, request, deps.config, result, caller.realm.policy);
      return result;
    },
  }),
];
