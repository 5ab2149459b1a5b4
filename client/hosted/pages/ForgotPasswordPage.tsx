import { useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ResetLinkSentText } from '../../components/auth/ResetLinkSentText';
import { EmailField } from '../../components/EmailField';
import { ForgotPasswordFormSchema, resolver } from '../../forms';
import { BackToSignIn } from '../components/BackToSignIn';
import { CheckYourMail } from '../components/CheckYourMail';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { ResendMail } from '../components/ResendMail';
import { HostedCaptcha, type CaptchaHandle } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useContinuation } from '../useInteraction';
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';

export function ForgotPasswordPage() {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const continuation = useContinuation();
  const captcha = useRef<CaptchaHandle>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { submitting, error, submit } = useFormSubmit(t('msg.resetEmailFailed'), () => captcha.current?.reset());

  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: translated(resolver(ForgotPasswordFormSchema), known) });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      const email = values.email.trim();
      await api.forgotPassword(email, (await captcha.current?.token()) ?? '', continuation);
      setSentTo(email);
    }),
  );

  if (sentTo) {
    return (
      <HostedPage documentTitle={t('common.checkEmail')} title={t('common.checkEmail')} footer={<BackToSignIn />}>
        <CheckYourMail
          actions={
            <Stack gap="xs" align="center" w="100%">
              <ResendMail email={sentTo} send={(captchaToken) => api.forgotPassword(sentTo, captchaToken, continuation)} fallback={t('msg.resetEmailFailed')} />
              <Button variant="subtle" size="compact-sm" onClick={() => setSentTo(null)}>
                {t('common.tryAgain')}
              </Button>
            </Stack>
          }
        >
          <ResetLinkSentText email={sentTo} />
          <Text size="sm" c="dimmed">
            {t('forgot.spam')}
          </Text>
        </CheckYourMail>
      </HostedPage>
    );
  }

  return (
    <HostedPage documentTitle={t('forgot.documentTitle')} title={t('forgot.title')} subtitle={t('forgot.subtitle')} footer={<BackToSignIn />}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && <FormAlert>{error}</FormAlert>}
          <EmailField placeholder={t('common.emailPlaceholder')} {...form.getInputProps('email')} />
          <HostedCaptcha ref={captcha} />
          <Button type="submit" fullWidth loading={submitting}>
            {t('forgot.submit')}
          </Button>
        </Stack>
      </form>
    </HostedPage>
  );
}
