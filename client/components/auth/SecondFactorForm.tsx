import { useId, useState } from 'react';
import { Anchor, Button, Divider, Group, PinInput, Stack, Text, TextInput, type MantineSpacing } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import type { PasskeyLoginInput, WebAuthnOptions } from '../../../shared/schemas/passkeys';
import { answerWithPasskey, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { useHostedT } from '../../i18n/useHostedT';

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
  const { t, known } = useHostedT();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [passkeyPending, setPasskeyPending] = useState(false);

  const submit = async (value = code) => {
    if (!value.trim()) {
      setError(t('msg.codeRequired'));
      return;
    }
    setError(null);
    setVerifying(true);
    try {
      onSignedIn(await source.verifyCode(mfaToken, value));
    } catch (failure) {
      setError(known(source.errorMessage(failure, t('msg.codeInvalid'))));
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
      if (!(failure instanceof PasskeyCancelled)) setError(known(source.passkeyErrorMessage(failure, t('signIn.passkeyFailed'))));
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
            label={t('secondFactor.recoveryCode')}
            description={t('secondFactor.recoveryCodeHelp')}
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
              {t('secondFactor.code')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('secondFactor.codeHelp')}
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
              getInputProps={(index) => ({ 'aria-label': t('secondFactor.digit', { index: index + 1, count: CODE_LENGTH }) })}
            />
            {error && (
              <Text size="xs" c="red" role="alert">
                {error}
              </Text>
            )}
          </Stack>
        )}
        <Button type="submit" fullWidth loading={verifying && !passkeyPending}>
          {t('secondFactor.verify')}
        </Button>
        {offerPasskey && (
          <>
            <Divider label={t('common.or')} labelPosition="center" />
            <Button variant="default" fullWidth leftSection={<IconFingerprint size={18} />} loading={passkeyPending} onClick={() => void verifyWithPasskey()}>
              {t('secondFactor.usePasskey')}
            </Button>
          </>
        )}
        <Group justify="space-between" gap={linksGap}>
          <Anchor component="button" type="button" size="sm" onClick={switchMethod}>
            {useRecovery ? t('secondFactor.useApp') : t('secondFactor.useRecovery')}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onCancel}>
            {t('common.backToSignIn')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
