import { IdParamSchema } from '../../../shared/schemas/admin.js';
import { BrowserSessionSchema, LogInResponseSchema } from '../../../shared/schemas/auth.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { MfaPasskeyOptionsInputSchema } from '../../../shared/schemas/mfa.js';
import {
  PasskeyCreatedSchema,
  PasskeyListSchema,
  PasskeyLoginInputSchema,
  PasskeyLoginOptionsInputSchema,
  PasskeyRegisterInputSchema,
  PasskeyRenameInputSchema,
  PasskeySchema,
  WebAuthnOptionsSchema,
} from '../../../shared/schemas/passkeys.js';
import { MESSAGES } from '../../../shared/messages.js';
import { defineRoute, type RouteDoc } from '../../rest/route.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { logInWithPasskey } from './auth.service.js';
import { passkeyOptionsForSignIn } from '../mfa/mfa.service.js';
import { deleteOwnPasskey, listOwnPasskeys, passkeyLoginOptions, passkeyRegistrationOptions, registerPasskey, renameOwnPasskey } from '../passkeys/passkeys.service.js';

/**
 * Passkeys (WebAuthn), one declaration for every realm. The relying party is APP_URL's host for
 * developers and on a project's hosted pages, and the project's website_url host for end users
 * reached through the public API (whose browsers run the ceremonies on the developer's site; the
 * developer's backend relays options and answers).
 */
export function passkeyRoutes(mount: AccountMount) {
  const mounted = accountMountOf(mount);
  const { prefix, signedIn, anonymous, cookies } = mounted;
  const doc = (forPlatform: Omit<RouteDoc, 'tag'>, forProject: Omit<RouteDoc, 'tag'>): RouteDoc => mounted.doc({ ...forPlatform, tag: 'Auth' }, forProject);
  // On the hosted pages the relying party is APP_URL's host; through the public API, the project's website.
  const ceremonyNote = mount.realm === 'project' ? " The project needs a website_url: it is the passkeys' relying party (400 otherwise)." : '';

  return [
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/passkeys/register/options`,
      procedure: mounted.procedure('registrationOptions'),
      access: signedIn,
      response: { 200: WebAuthnOptionsSchema },
      doc: doc(
        {
          operationId: 'passkeyRegistrationOptions',
          summary: 'Start adding a passkey',
          description: 'Options for navigator.credentials.create() (PublicKeyCredentialCreationOptionsJSON); the challenge works once within 5 minutes.',
        },
        { operationId: 'publicPasskeyRegistrationOptions', summary: 'Start adding a passkey for an end user', description: `Options for navigator.credentials.create().${ceremonyNote}`, errors: [400] },
      ),
      handler: ({ deps, caller }) => passkeyRegistrationOptions(deps, caller.realm, caller.session),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/passkeys/register/verify`,
      procedure: mounted.procedure('register'),
      access: signedIn,
      body: PasskeyRegisterInputSchema,
      response: { 201: PasskeyCreatedSchema },
      doc: doc(
        {
          operationId: 'registerPasskey',
          summary: 'Finish adding a passkey',
          description: "The browser's answer (RegistrationResponseJSON) and an optional name. 400 when it does not verify, 409 when the passkey is already registered.",
          errors: [400, 409],
        },
        { operationId: 'publicRegisterPasskey', summary: "Finish adding an end user's passkey", errors: [400, 409] },
      ),
      handler: async ({ deps, caller, body }) => ({ passkey: await registerPasskey(deps, caller.realm, caller.session, body) }),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/auth/passkeys`,
      procedure: mounted.procedure('list'),
      access: signedIn,
      response: { 200: PasskeyListSchema },
      doc: doc({ operationId: 'listPasskeys', summary: "The account's passkeys" }, { operationId: 'publicListPasskeys', summary: "An end user's passkeys" }),
      handler: async ({ deps, caller }) => ({ passkeys: await listOwnPasskeys(deps, caller.session.user) }),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/auth/passkeys/:id`,
      procedure: mounted.procedure('rename'),
      access: signedIn,
      params: IdParamSchema,
      body: PasskeyRenameInputSchema,
      response: { 200: PasskeySchema },
      doc: doc({ operationId: 'renamePasskey', summary: 'Rename a passkey', errors: [404] }, { operationId: 'publicRenamePasskey', summary: "Rename an end user's passkey", errors: [404] }),
      handler: ({ deps, caller, params, body }) => renameOwnPasskey(deps, caller.session.user, params.id, body.name),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${prefix}/auth/passkeys/:id`,
      procedure: mounted.procedure('remove'),
      access: signedIn,
      params: IdParamSchema,
      response: { 200: MessageSchema },
      doc: doc({ operationId: 'deletePasskey', summary: 'Remove a passkey', errors: [404] }, { operationId: 'publicDeletePasskey', summary: "Remove an end user's passkey", errors: [404] }),
      async handler({ deps, caller, params }) {
        await deleteOwnPasskey(deps, caller.session.user, params.id);
        return { message: MESSAGES.passkeyRemoved };
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/passkeys/login/options`,
      procedure: mounted.procedure('loginOptions'),
      access: anonymous,
      body: PasskeyLoginOptionsInputSchema,
      response: { 200: WebAuthnOptionsSchema },
      doc: doc(
        {
          operationId: 'passkeyLoginOptions',
          summary: 'Start signing in with a passkey',
          description:
            'Options for navigator.credentials.get(). Without an e-mail, the browser offers the passkeys it holds for this site; with one, the options name that account\'s passkeys (the answer looks the same for an address without an account). 429 past the limits of ceremonies started, and of ceremonies waiting, per network and per project.',
          bodyOptional: true,
          errors: [429],
        },
        { operationId: 'publicPasskeyLoginOptions', summary: 'Start signing an end user in with a passkey', description: `Options for navigator.credentials.get().${ceremonyNote}`, bodyOptional: true, errors: [400, 429] },
      ),
      handler: ({ deps, caller, body }) => passkeyLoginOptions(deps, caller.realm, body.email, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/passkeys/login/verify`,
      procedure: mounted.procedure('logIn'),
      browserResponse: BrowserSessionSchema,
      access: anonymous,
      body: PasskeyLoginInputSchema,
      response: { 200: LogInResponseSchema },
      doc: doc(
        {
          operationId: 'logInWithPasskey',
          summary: 'Sign in with a passkey',
          description:
            "The browser's answer (AuthenticationResponseJSON). Answers like a sign-in, tokens and cookies; a passkey counts as both factors. 401 when it does not verify.",
          errors: [401, 403, 429],
        },
        { operationId: 'publicLogInWithPasskey', summary: 'Sign an end user in with a passkey', errors: [401, 403, 429] },
      ),
      async handler({ deps, caller, body, request, reply }) {
        const result = await logInWithPasskey(deps, caller.realm, body, caller.info);
        cookies?.set(reply, request, deps.config, result, caller.realm.policy);
        return result;
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/mfa/passkey/options`,
      procedure: mounted.procedure('mfaOptions'),
      access: anonymous,
      body: MfaPasskeyOptionsInputSchema,
      response: { 200: WebAuthnOptionsSchema },
      doc: doc(
        {
          operationId: 'mfaPasskeyOptions',
          summary: 'Answer the second step with a passkey',
          description: 'Options for navigator.credentials.get() for a sign-in waiting for its second factor; send the answer to POST /api/v1/auth/mfa/verify as passkey_response.',
          errors: [400, 401],
        },
        { operationId: 'publicMfaPasskeyOptions', summary: "Answer an end user's second step with a passkey", errors: [400, 401] },
      ),
      handler: ({ deps, caller, body }) => passkeyOptionsForSignIn(deps, caller.realm, body.mfa_token, caller.info),
    }),
  ];
}
