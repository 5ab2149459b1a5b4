import { useRef, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import { EmailField } from '../../components/EmailField';
import { ForgotPasswordFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { MESSAGES } from '../../messages';
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
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';

/** The link of the verification mail: verifies once, or offers a new link. */
export function VerifyEmailPage() {
  const { api, paths } = useHosted();
  const { t, known } = useHostedT();
  const state = useMailedToken(async (token) => api.verifyEmail(token, await getDeviceFingerprint()), t('msg.verifyFailed'));
  const next = state.kind === 'success' ? state.answer.next : null;

  return (
    <HostedPage documentTitle={t('verify.title')} title={t('verify.title')} footer={<BackToSignIn />}>
      {state.kind === 'loading' && <StatusPanel kind="loading" title={t('verify.verifying')} />}
      {next && <LinkNextStep next={next} done={t('verify.done')} />}
      {state.kind === 'success' && !next && (
        <StatusPanel
          kind="success"
          title={t('verify.done')}
          actions={
            // A link that carries no app's sign-in (one asked for through an app's own backend) still leads back to the app.
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to={paths.page('sign-in')} state={{ message: MESSAGES.emailVerifiedRedirect }} replace>
                {t('verify.continueToSignIn')}
              </Button>
              <BackToApp />
            </Group>
          }
        >
          {t('verify.ready')}
        </StatusPanel>
      )}
      {(state.kind === 'error' || state.kind === 'invalid') && (
        <Stack gap="lg">
          <StatusPanel kind={state.kind} title={state.kind === 'error' ? t('verify.failed') : t('verify.invalid')}>
            {state.kind === 'error' ? known(state.detail) : t('msg.verifyNoToken')}
          </StatusPanel>
          <ResendVerification />
        </Stack>
      )}
    </HostedPage>
  );
}

function ResendVerification() {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const captcha = useRef<CaptchaHandle>(null);
  const [sent, setSent] = useState(false);
  const { submitting, error, submit } = useFormSubmit(t('msg.resendFailed'), () => captcha.current?.reset());
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: translated(resolver(ForgotPasswordFormSchema), known) });

  const onSubmit = form.onSubmit(({ email }) =>
    submit(async () => {
      await api.resendVerification(email.trim(), (await captcha.current?.token()) ?? '');
      setSent(true);
    }),
  );

  if (sent) return <FormAlert kind="success">{t('msg.verificationSent')}</FormAlert>;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('verify.resendPrompt')}</Text>
        {error && <FormAlert>{error}</FormAlert>}
        <EmailField placeholder={t('common.emailPlaceholder')} {...form.getInputProps('email')} />
        <HostedCaptcha ref={captcha} />
        <Button type="submit" variant="light" fullWidth loading={submitting}>
          {t('verify.resend')}
        </Button>
      </Stack>
    </form>
  );
}
