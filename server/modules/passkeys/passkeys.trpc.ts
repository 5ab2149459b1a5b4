import { IdParamSchema } from '../../../shared/schemas/admin.js';
import { BrowserSessionSchema } from '../../../shared/schemas/auth.js';
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
import { inputParser } from '../../lib/validate.js';
import { setAuthCookies } from '../../plugins/auth-cookies.js';
import { authedProcedure, publicProcedure, router } from '../../trpc/init.js';
import { logInWithPasskey } from '../auth/auth.service.js';
import { passkeyOptionsForSignIn } from '../mfa/mfa.service.js';
import { deleteOwnPasskey, listOwnPasskeys, passkeyLoginOptions, passkeyRegistrationOptions, registerPasskey, renameOwnPasskey } from './passkeys.service.js';

/** The developer's passkeys, and signing in with one (the browser's transport: tokens only in cookies). */
export const passkeysRouter = router({
  registrationOptions: authedProcedure.output(WebAuthnOptionsSchema).mutation(({ ctx }) => passkeyRegistrationOptions(ctx.deps, ctx.deps.platform, ctx.auth)),

  register: authedProcedure
    .input(inputParser(PasskeyRegisterInputSchema))
    .output(PasskeyCreatedSchema)
    .mutation(async ({ ctx, input }) => ({ passkey: await registerPasskey(ctx.deps, ctx.deps.platform, ctx.auth, input) })),

  list: authedProcedure.output(PasskeyListSchema).query(async ({ ctx }) => ({ passkeys: await listOwnPasskeys(ctx.deps, ctx.auth.user) })),

  rename: authedProcedure
    .input(inputParser(IdParamSchema.extend(PasskeyRenameInputSchema.shape)))
    .output(PasskeySchema)
    .mutation(({ ctx, input }) => renameOwnPasskey(ctx.deps, ctx.auth.user, input.id, input.name)),

  remove: authedProcedure
    .input(inputParser(IdParamSchema))
    .output(MessageSchema)
    .mutation(async ({ ctx, input }) => {
      await deleteOwnPasskey(ctx.deps, ctx.auth.user, input.id);
      return { message: MESSAGES.passkeyRemoved };
    }),

  loginOptions: publicProcedure
    .input(inputParser(PasskeyLoginOptionsInputSchema.optional().transform((input) => input ?? {})))
    .output(WebAuthnOptionsSchema)
    .mutation(({ ctx, input }) => passkeyLoginOptions(ctx.deps, ctx.deps.platform, input.email, ctx.request)),

  logIn: publicProcedure
    .input(inputParser(PasskeyLoginInputSchema))
    .output(BrowserSessionSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await logInWithPasskey(ctx.deps, ctx.deps.platform, input, ctx.request);
      setAuthCookies(ctx.res, ctx.deps.config, result);
      return { user: result.user, expires_in: result.expires_in };
    }),

  mfaOptions: publicProcedure
    .input(inputParser(MfaPasskeyOptionsInputSchema))
    .output(WebAuthnOptionsSchema)
    .mutation(({ ctx, input }) => passkeyOptionsForSignIn(ctx.deps, ctx.deps.platform, input.mfa_token, ctx.request)),
});
