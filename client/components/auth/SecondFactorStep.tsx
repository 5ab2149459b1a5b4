import type { MfaChallenge } from '../../../shared/schemas/mfa';
import type { User } from '../../../shared/schemas/user';
import { errorMessage } from '../../lib/errors';
import { passkeyErrorMessage } from '../../lib/passkeys';
import { trpc } from '../../lib/trpc';
import { SecondFactorForm, type SecondFactorSource } from './SecondFactorForm';

/** The second step of a developer's sign-in with two factors (SecondFactorForm over tRPC). */
export function SecondFactorStep({ challenge, onSignedIn, onCancel }: { challenge: MfaChallenge; onSignedIn: (user: User) => void; onCancel: () => void }) {
  const verify = trpc.auth.verifyMfa.useMutation();
  const passkeyOptions = trpc.passkeys.mfaOptions.useMutation();
  const source: SecondFactorSource<User> = {
    verifyCode: async (mfa_token, code) => (await verify.mutateAsync({ mfa_token, code })).user,
    passkeyOptions: (mfa_token) => passkeyOptions.mutateAsync({ mfa_token }),
    verifyPasskey: async (mfa_token, passkey_response) => (await verify.mutateAsync({ mfa_token, passkey_response })).user,
    errorMessage,
    passkeyErrorMessage,
  };
  return <SecondFactorForm challenge={challenge} source={source} onSignedIn={onSignedIn} onCancel={onCancel} />;
}
