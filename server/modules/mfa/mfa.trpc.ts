import { PRODUCT_NAME } from '../../../shared/constants.js';
import { MESSAGES } from '../../../shared/messages.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { MfaDisableInputSchema, RecoveryCodesInputSchema, RecoveryCodesSchema, TotpConfirmInputSchema, TotpSetupSchema } from '../../../shared/schemas/mfa.js';
import { inputParser } from '../../lib/validate.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { confirmTotp, disableMfa, regenerateRecoveryCodes, setUpTotp } from './mfa.service.js';

/** The signed-in developer's two factors (the browser's transport). */
export const mfaRouter = router({
  setUpTotp: authedProcedure.output(TotpSetupSchema).mutation(({ ctx }) => setUpTotp(ctx.deps, ctx.auth, PRODUCT_NAME)),

  confirmTotp: authedProcedure
    .input(inputParser(TotpConfirmInputSchema))
    .output(RecoveryCodesSchema)
    .mutation(({ ctx, input }) => confirmTotp(ctx.deps, ctx.auth, input.code)),

  regenerateRecoveryCodes: authedProcedure
    .input(inputParser(RecoveryCodesInputSchema))
    .output(RecoveryCodesSchema)
    .mutation(({ ctx, input }) => regenerateRecoveryCodes(ctx.deps, ctx.auth, input.password, ctx.request)),

  disable: authedProcedure
    .input(inputParser(MfaDisableInputSchema))
    .output(MessageSchema)
    .mutation(async ({ ctx, input }) => {
      await disableMfa(ctx.deps, ctx.auth.user, input, ctx.request);
      return { message: MESSAGES.mfaDisabled };
    }),
});
