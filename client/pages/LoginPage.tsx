import { useRef, useState } from 'react';
import { Alert, Anchor, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { MfaChallenge } from '../../shared/schemas/mfa';
import { useAuth } from '../auth/AuthProvider';
import { navigationMessage, postLoginPath } from '../auth/redirect';
import { AuthShell } from '../components/AuthShell';
import { PasskeySignInButton } from '../components/auth/PasskeySignInButton';
import { SecondFactorStep } from '../components/auth/SecondFactorStep';
import { EmailField } from '../components/EmailField';
import { CaptchaField, type CaptchaHandle } from '../components/CaptchaField';
import { PasswordField } from '../components/PasswordField';
import { PlaceholderLink } from '../components/PlaceholderLink';
import { SocialButtons } from '../components/SocialButtons';
import { LoginFormSchema, resolver } from '../forms';
import { errorMessage } from '../lib/errors';
import { getDeviceFingerprint } from '../lib/fingerprint';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { setUser } = useAuth();
  const logIn = trpc.auth.logIn.useMutation();
  const [submitting, setSubmitting] = useState(false);
  /** Set when the password was right and the account asks for a second factor. */
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const captcha = useRef<CaptchaHandle>(null);
  const banner = navigationMessage(location.state);

  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    // Checked on submit, not on blur: a message shown on blur pushes the button away from a click in progress.
    validate: resolver(LoginFormSchema),
  });

  const signedIn = (user: Parameters<typeof setUser>[0]) => {
    notify.success(TOASTS.loginSuccess);
    setUser(user);
    navigate(postLoginPath(location.state), { replace: true });
  };

  if (challenge) {
    return (
      <AuthShell title="Two-factor authentication" subtitle="One more step to sign in">
        <SecondFactorStep
          challenge={challenge}
          onSignedIn={signedIn}
          onCancel={() => {
            setChallenge(null);
            form.setFieldValue('password', '');
            captcha.current?.reset();
          }}
        />
      </AuthShell>
    );
  }

  const onSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      const result = await logIn.mutateAsync({
        email: values.email.trim(),
        password: values.password,
        captcha_token: (await captcha.current?.token()) ?? '',
        device_fingerprint: await getDeviceFingerprint(),
      });
      if ('mfa_required' in result) {
        setChallenge(result);
        setSubmitting(false);
        return;
      }
      signedIn(result.user);
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.loginFailed));
      captcha.current?.reset();
      setSubmitting(false);
    }
  });

  return (
    <AuthShell
      title="Welcome back"
      subtitle="Sign in to your developer account"
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Anchor component={Link} to="/signup" fw={600}>
            Sign up
          </Anchor>
        </>
      }
    >
      <Stack gap="md">
        {banner && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
            {banner}
          </Alert>
        )}
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <EmailField {...form.getInputProps('email')} />
            <PasswordField
              label="Password"
              placeholder="Your password"
              autoComplete="current-password"
              required
              {...form.getInputProps('password')}
            />
            <Group justify="flex-end" mt={-8}>
              <Anchor component={Link} to="/forgot-password" size="sm">
                Forgot password?
              </Anchor>
            </Group>
            <CaptchaField ref={captcha} />
            <Button type="submit" fullWidth loading={submitting}>
              Sign in
            </Button>
          </Stack>
        </form>
        <PasskeySignInButton onSignedIn={signedIn} />
        <Divider label="Or continue with" labelPosition="center" />
        <SocialButtons />
        <Text size="xs" c="dimmed" ta="center">
          By signing in you agree to our <PlaceholderLink size="xs">Terms of Service</PlaceholderLink> and{' '}
          <PlaceholderLink size="xs">Privacy Policy</PlaceholderLink>.
        </Text>
      </Stack>
    </AuthShell>
  );
}
