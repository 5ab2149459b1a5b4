import { useRef, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import { EmailField } from '../../components/EmailField';
import { ForgotPasswordFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { MESSAGES, TOASTS } from '../../messages';
import { BackToApp } from '../components/BackToApp';
import { BackToSignIn } from '../components/BackToSignIn';
import { FormAlert } from '../components/FormAlert';
import { LinkNextStep } from '../components/LinkNextStep';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { HostedCaptcha, type CaptchaHandle } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useMailedToken } from '../useMailedToken';

/** The link of the verification mail: verifies once, or offers a new link. */
export function VerifyEmailPage() {
  const { api, paths } = useHosted();
  const state = useMailedToken(async (token) => api.verifyEmail(token, await getDeviceFingerprint()), TOASTS.verifyFailed);
  const next = state.kind === 'success' ? state.answer.next : null;

  return (
    <HostedPage documentTitle="Email verification" title="Email verification" footer={<BackToSignIn />}>
      {state.kind === 'loading' && <StatusPanel kind="loading" title="Verifying your email…" />}
      {next && <LinkNextStep next={next} done="Email verified!" />}
      {state.kind === 'success' && !next && (
        <StatusPanel
          kind="success"
          title="Email verified!"
          actions={
            // A link that carries no app's sign-in (one asked for through an app's own backend) still leads back to the app.
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to={paths.page('sign-in')} state={{ message: MESSAGES.emailVerifiedRedirect }} replace>
                Continue to sign in
              </Button>
              <BackToApp />
            </Group>
          }
        >
          Your account is ready.
        </StatusPanel>
      )}
      {(state.kind === 'error' || state.kind === 'invalid') && (
        <Stack gap="lg">
          <StatusPanel kind={state.kind} title={state.kind === 'error' ? 'Verification failed' : 'Invalid verification link'}>
            {state.kind === 'error' ? state.detail : TOASTS.verifyNoToken}
          </StatusPanel>
          <ResendVerification />
        </Stack>
      )}
    </HostedPage>
  );
}

function ResendVerification() {
  const { api } = useHosted();
  const captcha = useRef<CaptchaHandle>(null);
  const [sent, setSent] = useState(false);
  const { submitting, error, submit } = useFormSubmit(TOASTS.resendFailed, () => captcha.current?.reset());
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: resolver(ForgotPasswordFormSchema) });

  const onSubmit = form.onSubmit(({ email }) =>
    submit(async () => {
      await api.resendVerification(email.trim(), (await captcha.current?.token()) ?? '');
      setSent(true);
    }),
  );

  if (sent) return <FormAlert kind="success">{MESSAGES.verificationSent}</FormAlert>;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Enter your email address to receive a new verification link:</Text>
        {error && <FormAlert>{error}</FormAlert>}
        <EmailField placeholder="you@example.com" {...form.getInputProps('email')} />
        <HostedCaptcha ref={captcha} />
        <Button type="submit" variant="light" fullWidth loading={submitting}>
          Resend verification email
        </Button>
      </Stack>
    </form>
  );
}
