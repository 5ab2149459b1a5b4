import { useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ResetLinkSentText } from '../../components/auth/ResetLinkSentText';
import { EmailField } from '../../components/EmailField';
import { ForgotPasswordFormSchema, resolver } from '../../forms';
import { TOASTS } from '../../messages';
import { BackToSignIn } from '../components/BackToSignIn';
import { CheckYourMail } from '../components/CheckYourMail';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { ResendMail } from '../components/ResendMail';
import { HostedCaptcha, type CaptchaHandle } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useContinuation } from '../useInteraction';

export function ForgotPasswordPage() {
  const { api } = useHosted();
  const continuation = useContinuation();
  const captcha = useRef<CaptchaHandle>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { submitting, error, submit } = useFormSubmit(TOASTS.resetEmailFailed, () => captcha.current?.reset());

  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: resolver(ForgotPasswordFormSchema) });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      const email = values.email.trim();
      await api.forgotPassword(email, (await captcha.current?.token()) ?? '', continuation);
      setSentTo(email);
    }),
  );

  if (sentTo) {
    return (
      <HostedPage documentTitle="Check your email" title="Check your email" footer={<BackToSignIn />}>
        <CheckYourMail
          actions={
            <Stack gap="xs" align="center" w="100%">
              <ResendMail email={sentTo} send={(captchaToken) => api.forgotPassword(sentTo, captchaToken, continuation)} fallback={TOASTS.resetEmailFailed} />
              <Button variant="subtle" size="compact-sm" onClick={() => setSentTo(null)}>
                Try again
              </Button>
            </Stack>
          }
        >
          <ResetLinkSentText email={sentTo} />
          <Text size="sm" c="dimmed">
            The link works once, for one hour. Didn&apos;t get it? Check your spam folder.
          </Text>
        </CheckYourMail>
      </HostedPage>
    );
  }

  return (
    <HostedPage documentTitle="Forgot password" title="Forgot your password?" subtitle="Enter your e-mail and we'll send you a link to reset it" footer={<BackToSignIn />}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && <FormAlert>{error}</FormAlert>}
          <EmailField placeholder="you@example.com" {...form.getInputProps('email')} />
          <HostedCaptcha ref={captcha} />
          <Button type="submit" fullWidth loading={submitting}>
            Send reset link
          </Button>
        </Stack>
      </form>
    </HostedPage>
  );
}
