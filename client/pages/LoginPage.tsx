import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconMail } from '@tabler/icons-react';
import type { MfaChallenge } from '../../shared/schemas/mfa';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { navigationMessage, postLoginPath, safeReturnTo } from '../auth/redirect';
import { AuthShell } from '../components/AuthShell';
import { EMAIL_CODE_TEXT, EmailCodeSignIn } from '../components/auth/EmailCodeSignIn';
import { PasskeySignInButton } from '../components/auth/PasskeySignInButton';
import { SecondFactorStep } from '../components/auth/SecondFactorStep';
import { SocialButtons } from '../components/auth/SocialButtons';
import { SocialErrorAlert } from '../components/auth/SocialErrorAlert';
import { useFragmentChallenge } from '../components/auth/useFragmentChallenge';
import { usePasswordSignIn } from '../components/auth/usePasswordSignIn';
import { useSignInProviders } from '../components/auth/useSignInProviders';
import { useSocialSignIn } from '../components/auth/useSocialSignIn';
import { EmailField } from '../components/EmailField';
import { CaptchaField, type CaptchaStatus } from '../components/CaptchaField';
import { PasswordField } from '../components/PasswordField';
import { LegalNotice } from '../components/site/LegalLinks';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { socialStartUrl } from '../lib/social';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';
import { LocalMailHint } from '../components/mail/LocalMailLink';

const SIGN_IN_FAILURE = 'sign-in-failure';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { setUser } = useAuth();
  const logIn = trpc.auth.logIn.useMutation();
  const [params] = useSearchParams();
  const banner = navigationMessage(location.state);
  const providers = useSignInProviders();
  const [returnedChallenge, dropReturnedChallenge] = useFragmentChallenge();
  // `?return_to=` when a sign-in with a provider came back here, else where a guard sent the visitor from.
  const returnTo = safeReturnTo(params.get('return_to')) ?? postLoginPath(location.state);

  const signedIn = (user: Parameters<typeof setUser>[0]) => {
    // A wrong password's toast is not left beside the success of the next try.
    notify.dismiss(SIGN_IN_FAILURE);
    notify.success(TOASTS.loginSuccess);
    setUser(user);
    navigate(returnTo, { replace: true });
  };

  const { form, captcha, submitting, challenge, onSubmit, cancelChallenge } = usePasswordSignIn({
    logIn: (input) => logIn.mutateAsync(input),
    onSignedIn: (session) => signedIn(session.user),
    onFailure: (error) => notify.error(errorMessage(error, TOASTS.loginFailed), { id: SIGN_IN_FAILURE }),
  });

  const [captchaStatus, setCaptchaStatus] = useState<CaptchaStatus>('ready');
  const social = useSocialSignIn(captcha, (provider, proof) => socialStartUrl('/api/v1', provider, { return_to: returnTo, ...proof }));
  // "Email me a sign-in code", when the platform offers it (PLATFORM_EMAIL_CODE).
  const emailCodeOffered = trpc.auth.signInMethods.useQuery(undefined, { staleTime: 60_000 }).data?.email_code === true;
  const [byCode, setByCode] = useState(false);
  const [codeChallenge, setCodeChallenge] = useState<MfaChallenge | null>(null);

  const secondStep = challenge ?? codeChallenge ?? returnedChallenge;
  if (secondStep) {
    return (
      <AuthShell title="Two-factor authentication" subtitle="One more step to sign in">
        <SecondFactorStep
          challenge={secondStep}
          onSignedIn={signedIn}
          onCancel={() => {
            dropReturnedChallenge();
            cancelChallenge();
            setCodeChallenge(null);
          }}
        />
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
        <LocalMailHint enabled={typeof banner === 'string' && /check your email/i.test(banner)} />
        <SocialErrorAlert code={params.get('social_error')} />
        {byCode ? (
          <>
            <EmailCodeSignIn initialEmail={form.getValues().email} onSignedIn={signedIn} onChallenge={setCodeChallenge} />
            <Anchor component="button" type="button" size="sm" ta="center" onClick={() => setByCode(false)}>
              Sign in with a password instead
            </Anchor>
          </>
        ) : (
          <>
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
                <CaptchaField ref={captcha} onStatusChange={setCaptchaStatus} />
                <Button type="submit" fullWidth loading={submitting}>
                  Sign in
                </Button>
              </Stack>
            </form>
            <PasskeySignInButton onSignedIn={signedIn} />
            {emailCodeOffered && (
              <Button variant="default" fullWidth leftSection={<IconMail size={18} />} onClick={() => setByCode(true)}>
                {EMAIL_CODE_TEXT.ask}
              </Button>
            )}
            <SocialButtons providers={providers} label="Or continue with" pending={social.pending} onSelect={social.start} captcha={captchaStatus} />
          </>
        )}
        <LegalNotice action="signing in" />
      </Stack>
    </AuthShell>
  );
}
