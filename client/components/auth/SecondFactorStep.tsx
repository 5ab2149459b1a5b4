import { useState } from 'react';
import { Anchor, Button, Divider, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import type { User } from '../../../shared/schemas/user';
import { errorMessage } from '../../lib/errors';
import { answerWithPasskey, passkeyErrorMessage, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { trpc } from '../../lib/trpc';

const CODE_LENGTH = 6;

/**
 * The second step of a sign-in with two factors: a 6-digit code from the authenticator app (typed or
 * pasted; a full code submits itself), one of the recovery codes, or a passkey when the account has one.
 */
export function SecondFactorStep({ challenge, onSignedIn, onCancel }: { challenge: MfaChallenge; onSignedIn: (user: User) => void; onCancel: () => void }) {
  const mfaToken = challenge.mfa_token;
  const verify = trpc.auth.verifyMfa.useMutation();
  const passkeyOptions = trpc.passkeys.mfaOptions.useMutation();
  const [passkeyPending, setPasskeyPending] = useState(false);
  const offerPasskey = challenge.methods.includes('passkey') && passkeysSupported();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (value = code) => {
    if (!value.trim()) {
      setError('Code is required');
      return;
    }
    setError(null);
    try {
      const session = await verify.mutateAsync({ mfa_token: mfaToken, code: value });
      onSignedIn(session.user);
    } catch (failure) {
      setError(errorMessage(failure, 'Invalid code'));
      setCode('');
    }
  };

  const verifyWithPasskey = async () => {
    setError(null);
    setPasskeyPending(true);
    try {
      const passkey_response = await answerWithPasskey(await passkeyOptions.mutateAsync({ mfa_token: mfaToken }));
      const session = await verify.mutateAsync({ mfa_token: mfaToken, passkey_response });
      onSignedIn(session.user);
    } catch (failure) {
      if (!(failure instanceof PasskeyCancelled)) setError(passkeyErrorMessage(failure, 'Passkey sign-in failed'));
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
            <Text size="sm" fw={500} id="totp-label">
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
              aria-labelledby="totp-label"
              getInputProps={(index) => ({ 'aria-label': `Digit ${index + 1} of ${CODE_LENGTH}` })}
            />
            {error && (
              <Text size="xs" c="red" role="alert">
                {error}
              </Text>
            )}
          </Stack>
        )}
        <Button type="submit" fullWidth loading={verify.isPending && !passkeyPending}>
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
        <Group justify="space-between">
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
