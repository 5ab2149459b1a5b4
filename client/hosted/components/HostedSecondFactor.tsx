import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { SecondFactorForm, type SecondFactorSource } from '../../components/auth/SecondFactorForm';
import { hostedErrorMessage, type SignedIn } from '../api';
import { useHosted } from '../HostedContext';
import { passkeyFailureMessage } from '../passkey-errors';

/** The second step of an end user's sign-in with two factors (SecondFactorForm over the hosted API). */
export function HostedSecondFactor({ challenge, onSignedIn, onCancel }: { challenge: MfaChallenge; onSignedIn: () => void; onCancel: () => void }) {
  const { api } = useHosted();
  const source: SecondFactorSource<SignedIn> = {
    verifyCode: (mfa_token, code) => api.verifyMfa({ mfa_token, code: code.trim() }),
    passkeyOptions: api.mfaPasskeyOptions,
    verifyPasskey: (mfa_token, passkey_response) => api.verifyMfa({ mfa_token, passkey_response }),
    errorMessage: hostedErrorMessage,
    passkeyErrorMessage: passkeyFailureMessage,
  };
  return <SecondFactorForm challenge={challenge} source={source} onSignedIn={() => onSignedIn()} onCancel={onCancel} linksGap="xs" />;
}
