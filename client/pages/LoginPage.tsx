import { Alert, Anchor, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { navigationMessage, postLoginPath } from '../auth/redirect';
import { AuthShell } from '../components/AuthShell';
import { PasskeySignInButton } from '../components/auth/PasskeySignInButton';
import { SecondFactorStep } from '../components/auth/SecondFactorStep';
import { usePasswordSignIn } from '../components/auth/usePasswordSignIn';
import { EmailField } from '../components/EmailField';
import { CaptchaField } from '../components/CaptchaField';
import { PasswordField } from '../components/PasswordField';
import { PlaceholderLink } from '../components/PlaceholderLink';
import { SocialButtons } from '../components/SocialButtons';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { setUser } = useAuth();
  const logIn = trpc.auth.logIn.useMutation();
  const banner = navigationMessage(location.state);

  const signedIn = (user: Parameters<typeof setUser>[0]) => {
    notify.success(TOASTS.loginSuccess);
    setUser(user);
    navigate(postLoginPath(location.state), { replace: true });
  };

  const { form, captcha, submitting, challenge, onSubmit, cancelChallenge } = usePasswordSignIn({
    logIn: (input) => logIn.mutateAsync(input),
    onSignedIn: (session) => signedIn(session.user),
    onFailure: (error) => notify.error(errorMessage(error, TOASTS.loginFailed)),
  });

  if (challenge) {
    return (
      <AuthShell title="Two-factor authentication" subtitle="One more step to sign in">
        <SecondFactorStep challenge={challenge} onSignedIn={signedIn} onCancel={cancelChallenge} />
      </AuthShell>
    );
  }

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
