import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { useAuth } from '../../auth/AuthProvider';
import { passkeyErrorMessage } from '../../lib/passkeys';
import { trpc } from '../../lib/trpc';
import { StepUpProvider, type StepUpSource } from '../account/StepUp';

/** The developer's step-up (the dialog the security settings and the profile's change of address open), over tRPC. */
export function PlatformStepUp({ children }: { children: ReactNode }) {
  const utils = trpc.useUtils();
  const stepUp = trpc.auth.stepUp.useMutation();
  const passkeyOptions = trpc.auth.stepUpPasskeyOptions.useMutation();
  const emailCode = trpc.auth.stepUpEmailCode.useMutation();
  const logOut = trpc.auth.logOut.useMutation();
  const { endSession } = useAuth();
  const location = useLocation();
  const source: StepUpSource = {
    status: () => utils.client.auth.stepUpStatus.query(),
    confirm: (proof) => stepUp.mutateAsync(proof),
    passkeyOptions: () => passkeyOptions.mutateAsync(),
    sendEmailCode: () => emailCode.mutateAsync(),
    // The server's detail, or the browser's own words for a passkey dialog that failed.
    errorMessage: passkeyErrorMessage,
    // Back to this page once signed in: the login page takes `from` and shows `message`.
    signInAgain: () => {
      void logOut.mutateAsync().finally(() => endSession('/login', { from: location, message: 'Sign in again to confirm it is you, then make the change.' }));
    },
  };
  return <StepUpProvider source={source}>{children}</StepUpProvider>;
}
