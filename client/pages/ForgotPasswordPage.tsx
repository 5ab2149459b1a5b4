import { useRef, useState } from 'react';
import { Anchor, Button, Center, Stack, Text, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconMailForward } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { AuthShell } from '../components/AuthShell';
import { ResetLinkSentText } from '../components/auth/ResetLinkSentText';
import { EmailField } from '../components/EmailField';
import { CaptchaField, type CaptchaHandle } from '../components/CaptchaField';
import { ForgotPasswordFormSchema, resolver } from '../forms';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { MESSAGES, TOASTS } from '../messages';

const backToLogin = (
  <Anchor component={Link} to="/login" size="sm">
    <Center inline component="span">
      <IconArrowLeft size={14} />
      <span style={{ marginLeft: 6 }}>Back to sign in</span>
    </Center>
  </Anchor>
);

export function ForgotPasswordPage() {
  const forgotPassword = trpc.auth.forgotPassword.useMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const captcha = useRef<CaptchaHandle>(null);

  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    // Checked on submit, not on blur: a message shown on blur pushes the button away from a click in progress.
    validate: resolver(ForgotPasswordFormSchema),
  });

  const onSubmit = form.onSubmit(async (values) => {
    const email = values.email.trim();
    try {
      await forgotPassword.mutateAsync({ email, captcha_token: (await captcha.current?.token()) ?? '' });
      notify.success(MESSAGES.resetEmailSent);
      setSentTo(email);
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.resetEmailFailed));
      captcha.current?.reset();
    }
  });

  if (sentTo) {
    return (
      <AuthShell title="Check your email" footer={backToLogin}>
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light" color="teal">
            <IconMailForward size={30} />
          </ThemeIcon>
          <ResetLinkSentText email={sentTo} />
          <Text size="sm" c="dimmed">
            Didn&apos;t get it? Check your spam folder, or try again with another address.
          </Text>
          <Button variant="default" onClick={() => setSentTo(null)}>
            Try again
          </Button>
        </Stack>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Forgot your password?"
      subtitle="Enter your e-mail and we'll send you a link to reset it"
      footer={backToLogin}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <EmailField {...form.getInputProps('email')} />
          <CaptchaField ref={captcha} />
          <Button type="submit" fullWidth loading={forgotPassword.isPending}>
            Send reset link
          </Button>
        </Stack>
      </form>
    </AuthShell>
  );
}
