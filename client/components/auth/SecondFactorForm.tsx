import { useId, useState } from 'react';
import { Anchor, Button, Divider, Group, PinInput, Stack, Text, TextInput, type MantineSpacing } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import type { PasskeyLoginInput, WebAuthnOptions } from '../../../shared/schemas/passkeys';
import { answerWithPasskey, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';

const CODE_LENGTH = 6;

/** How the second step reaches the server: the platform's tRPC procedures or a project's hosted API. */
export interface SecondFactorSource<Session> {
  verifyCode(mfaToken: string, code: string): Promise<Session>;
  passkeyOptions(mfaToken: string): Promise<WebAuthnOptions>;
  verifyPasskey(mfaToken: string, response: PasskeyLoginInput['response']): Promise<Session>;
  /** The text for a refused code. */
  errorMessage(failure: unknown, fallback: string): string;
  /** The text for a failed passkey: the server's detail, the browser's own message, or the fallback. */
  passkeyErrorMessage(failure: unknown, fallback: string): string;
}

interface SecondFactorFormProps<Session> {
  challenge: MfaChallenge;
  source: SecondFactorSource<Session>;
  onSignedIn: (session: Session) => void;
  onCancel: () => void;
  /** Between the two links at the bottom. */
  linksGap?: MantineSpacing;
}

/**
 * The second step of a sign-in with two factors: a 6-digit code from the authenticator app (typed or
 * pasted; a full code submits itself), one of the recovery codes, or a passkey when the challenge offers one.
 * After a success the Verify button keeps spinning until the caller has moved on.
 */
export function SecondFactorForm<Session>({ challenge, source, onSignedIn, onCancel, linksGap }: SecondFactorFormProps<Session>) {
  const mfaToken = challenge.mfa_token;
  const offerPasskey = challenge.methods.includes('passkey') && passkeysSupported();
  const labelId = useId();
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
      onSignedIn(await source.verifyCode(mfaToken, value));
    } catch (failure) {
      setError(source.errorMessage(failure, 'Invalid code'));
      setCode('');
      setVerifying(false);
    }
  };

  const verifyWithPasskey = async () => {
    setError(null);
    setPasskeyPending(true);
    try {
      const response = await answerWithPasskey(await source.passkeyOptions(mfaToken));
      onSignedIn(await source.verifyPasskey(mfaToken, response));
    } catch (failure) {
      if (!(failure instanceof PasskeyCancelled)) setError(source.passkeyErrorMessage(failure, 'Passkey sign-in failed'));
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
            <Text size="sm" fw={500} id={labelId}>
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
              aria-labelledby={labelId}
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
        <Group justify="space-between" gap={linksGap}>
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
