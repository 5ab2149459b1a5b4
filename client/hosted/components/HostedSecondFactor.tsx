import { useState } from 'react';
import { Anchor, Button, Divider, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { answerWithPasskey, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { hostedErrorMessage } from '../api';
import { useHosted } from '../HostedContext';
import { passkeyFailureMessage } from '../passkey-errors';

const CODE_LENGTH = 6;

/**
 * The second step of a sign-in with two factors: a 6-digit code from the authenticator app (a full code
 * submits itself), one of the recovery codes, or a passkey when the challenge offers one.
 */
export function HostedSecondFactor({ challenge, onSignedIn, onCancel }: { challenge: MfaChallenge; onSignedIn: () => void; onCancel: () => void }) {
  const { api } = useHosted();
  const mfaToken = challenge.mfa_token;
  const offerPasskey = challenge.methods.includes('passkey') && passkeysSupported();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [passkeyPending, setPasskeyPending] = useState(false);

  const submit = async (value = code) => {
    if (!value.trim()) {
      setError('Code is required');
      return;
    }
    setError(null);
    setVerifying(true);
    try {
      await api.verifyMfa({ mfa_token: mfaToken, code: value.trim() });
      onSignedIn();
    } catch (failure) {
      setError(hostedErrorMessage(failure, 'Invalid code'));
      setCode('');
      setVerifying(false);
    }
  };

  const verifyWithPasskey = async () => {
    setError(null);
    setPasskeyPending(true);
    try {
      const passkey_response = await answerWithPasskey(await api.mfaPasskeyOptions(mfaToken));
      await api.verifyMfa({ mfa_token: mfaToken, passkey_response });
      onSignedIn();
    } catch (failure) {
      if (!(failure instanceof PasskeyCancelled)) setError(passkeyFailureMessage(failure, 'Passkey sign-in failed'));
      setPasskeyPending(false);
    }
  };

  const switchMethod = () => {
    setUseRecovery((current) => !current);
    setCode('');
    setError(null);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        {useRecovery ? (
          <TextInput
            label="Recovery code"
            description="One of the codes you saved when you turned on two-factor authentication. Each works once."
            placeholder="xxxxx-xxxxx"
            autoComplete="off"
            autoFocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
          />
        ) : (
          <Stack gap={6}>
            <Text size="sm" fw={500} id="hosted-totp-label">
              Authentication code
            </Text>
            <Text size="xs" c="dimmed">
              Enter the 6-digit code from your authenticator app.
            </Text>
            <PinInput
              length={CODE_LENGTH}
              type="number"
              oneTimeCode
              autoFocus
              size="md"
              value={code}
              onChange={setCode}
              onComplete={(value) => void submit(value)}
              error={Boolean(error)}
              aria-labelledby="hosted-totp-label"
              getInputProps={(index) => ({ 'aria-label': `Digit ${index + 1} of ${CODE_LENGTH}` })}
            />
            {error && (
              <Text size="xs" c="red" role="alert">
                {error}
              </Text>
            )}
          </Stack>
        )}
        <Button type="submit" fullWidth loading={verifying && !passkeyPending}>
          Verify
        </Button>
        {offerPasskey && (
          <>
            <Divider label="or" labelPosition="center" />
            <Button variant="default" fullWidth leftSection={<IconFingerprint size={18} />} loading={passkeyPending} onClick={() => void verifyWithPasskey()}>
              Use a passkey
            </Button>
          </>
        )}
        <Group justify="space-between" gap="xs">
          <Anchor component="button" type="button" size="sm" onClick={switchMethod}>
            {useRecovery ? 'Use your authenticator app' : 'Use a recovery code'}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onCancel}>
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
