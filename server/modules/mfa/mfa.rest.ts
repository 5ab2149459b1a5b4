import { PRODUCT_NAME } from '../../../shared/constants.js';
import { MESSAGES } from '../../../shared/messages.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { MfaDisableInputSchema, RecoveryCodesInputSchema, RecoveryCodesSchema, TotpConfirmInputSchema, TotpSetupSchema } from '../../../shared/schemas/mfa.js';
import { defineRoute } from '../../rest/route.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { confirmTotp, disableMfa, regenerateRecoveryCodes, setUpTotp } from './mfa.service.js';

/**
 * Two-factor enrolment for the signed-in account, one declaration for both realms: a developer
 * (bearer or cookie), or a project's end user (X-API-Key and the end user's bearer token).
 */
export function mfaRoutes(mount: AccountMount) {
  const { prefix, signedIn: auth, doc, procedure } = accountMountOf(mount);

  return [
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/mfa/totp/setup`,
      procedure: procedure('setUpTotp'),
      access: auth,
      response: { 200: TotpSetupSchema },
      doc: doc(
        {
          operationId: 'setUpTotp',
          tag: 'Auth',
          summary: 'Start setting up an authenticator app',
          description: 'A new TOTP secret (30 s, 6 digits, SHA-1) and its otpauth:// URI for a QR code. Nothing is on until a code is confirmed.',
          errors: [409],
        },
        { operationId: 'publicSetUpTotp', summary: 'Start setting up an authenticator app for an end user', errors: [409] },
      ),
      handler: async ({ deps, caller }) => setUpTotp(deps, caller.session, caller.project?.name ?? PRODUCT_NAME),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/mfa/totp/confirm`,
      procedure: procedure('confirmTotp'),
      access: auth,
      body: TotpConfirmInputSchema,
      response: { 200: RecoveryCodesSchema },
      doc: doc(
        {
          operationId: 'confirmTotp',
          tag: 'Auth',
          summary: 'Turn two factors on with a first code',
          description: 'Answers ten one-use recovery codes, shown this once. A wrong code is 400 "Invalid code".',
          errors: [400, 409],
        },
        { operationId: 'publicConfirmTotp', summary: "Turn an end user's two factors on with a first code", errors: [400, 409] },
      ),
      handler: ({ deps, caller, body }) => confirmTotp(deps, caller.session, body.code),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/mfa/recovery-codes`,
      procedure: procedure('regenerateRecoveryCodes'),
      access: auth,
      body: RecoveryCodesInputSchema,
      response: { 200: RecoveryCodesSchema },
      doc: doc(
        { operationId: 'regenerateRecoveryCodes', tag: 'Auth', summary: 'New recovery codes (the old set stops working)', errors: [400, 429] },
        { operationId: 'publicRegenerateRecoveryCodes', summary: 'New recovery codes for an end user', errors: [400, 429] },
      ),
      handler: ({ deps, caller, body }) => regenerateRecoveryCodes(deps, caller.session, body.password, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/mfa/disable`,
      procedure: procedure('disable'),
      access: auth,
      body: MfaDisableInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'disableMfa',
          tag: 'Auth',
          summary: 'Turn two factors off',
          description: 'Needs the password and a code from the authenticator app or a recovery code.',
          errors: [400, 429],
        },
        { operationId: 'publicDisableMfa', summary: "Turn an end user's two factors off", errors: [400, 429] },
      ),
      async handler({ deps, caller, body }) {
        await disableMfa(deps, caller.session.user, body, caller.info);
        return { message: MESSAGES.mfaDisabled };
      },
    }),
  ];
}
