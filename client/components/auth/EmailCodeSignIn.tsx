import { useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { PASSWORDLESS_MESSAGES } from '../../../shared/schemas/passwordless';
import type { User } from '../../../shared/schemas/user';
import { ForgotPasswordFormSchema, resolver } from '../../forms';
import { errorMessage } from '../../lib/errors';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { CaptchaField, type CaptchaHandle } from '../CaptchaField';
import { EmailField } from '../EmailField';

export const EMAIL_CODE_TEXT = {
  ask: 'Email me a sign-in code',
  send: 'Send code',
  verify: 'Sign in',
  codeLabel: 'Sign-in code',
  resend: 'Send a new code',
  otherAddress: 'Use another address',
  sendFailed: 'Could not send the code',
  codeInvalid: 'Enter the 6 digits from the mail',
  codeFailed: 'Sign-in failed',
} as const;

/**
 * The dashboard's sign-in by a mailed code: the address (and the captcha), then the 6-digit code from
 * the mail. The server answers like the password sign-in: the session, or the second step's challenge.
 */
export function EmailCodeSignIn(props: { initialEmail: string; onSignedIn: (user: User) => void; onChallenge: (challenge: MfaChallenge) => void }) {
  const send = trpc.auth.sendEmailCode.useMutation();
  const verify = trpc.auth.verifyEmailCode.useMutation();
  const captcha = useRef<CaptchaHandle>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const form = useForm({ mode: 'controlled', initialValues: { email: props.initialEmail }, validate: resolver(ForgotPasswordFormSchema) });

  const sendCode = async (email: string) => {
    try {
      await send.mutateAsync({ email, captcha_token: (await captcha.current?.token()) ?? '' });
      setCode('');
      setCodeError(null);
      setSentTo(email);
    } catch (failure) {
      notify.error(errorMessage(failure, EMAIL_CODE_TEXT.sendFailed));
    } finally {
      captcha.current?.reset();
    }
  };

  const checkCode = async (email: string, value: string) => {
    if (!/^\d{6}$/.test(value)) {
      setCodeError(EMAIL_CODE_TEXT.codeInvalid);
      return;
    }
    setCodeError(null);
    try {
      const answer = await verify.mutateAsync({ email, code: value, device_fingerprint: await getDeviceFingerprint() });
      if ('mfa_required' in answer) props.onChallenge(answer);
      else props.onSignedIn(answer.user);
    } catch (failure) {
      setCodeError(errorMessage(failure, EMAIL_CODE_TEXT.codeFailed));
      setCode('');
    }
  };

  if (sentTo) {
    return (
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void checkCode(sentTo, code);
        }}
      >
        <Stack gap="md">
          <Text size="sm" ta="center">
            {PASSWORDLESS_MESSAGES.codeSent} ({sentTo})
          </Text>
          {codeError && (
            <Alert color="red" variant="light" role="alert">
              {codeError}
            </Alert>
          )}
          <Group justify="center">
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              autoFocus
              value={code}
              onChange={setCode}
              onComplete={(value) => void checkCode(sentTo, value)}
              aria-label={EMAIL_CODE_TEXT.codeLabel}
              getInputProps={(index) => ({ 'aria-label': `Code digit ${index + 1} of 6` })}
            />
          </Group>
          <CaptchaField ref={captcha} />
          <Button type="submit" fullWidth loading={verify.isPending}>
            {EMAIL_CODE_TEXT.verify}
          </Button>
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => void sendCode(sentTo)}>
              {EMAIL_CODE_TEXT.resend}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => setSentTo(null)}>
              {EMAIL_CODE_TEXT.otherAddress}
            </Anchor>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <form noValidate onSubmit={form.onSubmit(({ email }) => sendCode(email.trim()))}>
      <Stack gap="md">
        <EmailField {...form.getInputProps('email')} />
        <CaptchaField ref={captcha} />
        <Button type="submit" fullWidth loading={send.isPending}>
          {EMAIL_CODE_TEXT.send}
        </Button>
      </Stack>
    </form>
  );
}
