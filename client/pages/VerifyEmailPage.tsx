import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, List, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle, IconLinkOff } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { VERIFY_EMAIL_REDIRECT_DELAY_MS } from '../../shared/constants';
import { AuthShell } from '../components/AuthShell';
import { CaptchaField, type CaptchaHandle } from '../components/CaptchaField';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { MESSAGES, TOASTS } from '../messages';

type VerifyState = 'loading' | 'success' | 'error' | 'invalid';

export const RESEND_PROMPT = 'Enter your email address to receive a new verification link:';

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const verifyEmail = trpc.auth.verifyEmail.useMutation();
  const resend = trpc.auth.resendVerification.useMutation();
  const captcha = useRef<CaptchaHandle>(null);
  const [state, setState] = useState<VerifyState>(token ? 'loading' : 'invalid');
  const [detail, setDetail] = useState<string>(token ? '' : TOASTS.verifyNoToken);
  const attempted = useRef<string | null>(null);
  const { mutateAsync } = verifyEmail;

  useEffect(() => {
    // A token is single-use: verify it once, even when React runs effects twice in development.
    if (attempted.current === token) return;
    attempted.current = token;
    if (!token) {
      setState('invalid');
      setDetail(TOASTS.verifyNoToken);
      notify.error(TOASTS.verifyNoToken);
      return;
    }
    setState('loading');
    mutateAsync({ token }).then(
      () => {
        setState('success');
        notify.success(MESSAGES.emailVerified);
      },
      (error: unknown) => {
        const message = errorMessage(error, TOASTS.verifyFailed);
        setState('error');
        setDetail(message);
        notify.error(message);
      },
    );
  }, [token, mutateAsync]);

  useEffect(() => {
    if (state !== 'success') return;
    const timer = window.setTimeout(
      () => navigate('/login', { replace: true, state: { message: MESSAGES.emailVerifiedRedirect } }),
      VERIFY_EMAIL_REDIRECT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [state, navigate]);

  const onResend = async () => {
    const email = window.prompt(RESEND_PROMPT)?.trim();
    if (!email) return;
    try {
      await resend.mutateAsync({ email, captcha_token: (await captcha.current?.token()) ?? '' });
      notify.success(MESSAGES.verificationSent);
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.resendFailed));
    }
  };

  const backLink = (
    <Anchor component={Link} to="/login" size="sm">
      Back to sign in
    </Anchor>
  );

  return (
    <AuthShell title="Email verification" footer={backLink} size={480}>
      <Stack gap="lg">
        {state === 'loading' && (
          <Stack align="center" ta="center" gap="sm" py="md" role="status">
            <Loader />
            <Text fw={600}>Verifying your email…</Text>
            <Text size="sm" c="dimmed">
              This only takes a moment.
            </Text>
          </Stack>
        )}

        {state === 'success' && (
          <Stack align="center" ta="center" gap="sm" py="md" role="status">
            <ThemeIcon size={56} radius="xl" color="teal" variant="light">
              <IconCircleCheck size={32} />
            </ThemeIcon>
            <Text fw={700} fz="lg">
              Email verified!
            </Text>
            <Text size="sm" c="dimmed">
              Your account is ready. Taking you to the sign-in page…
            </Text>
            <Button component={Link} to="/login" state={{ message: MESSAGES.emailVerifiedRedirect }} replace>
              Continue to sign in
            </Button>
          </Stack>
        )}

        {(state === 'error' || state === 'invalid') && (
          <Stack align="center" ta="center" gap="sm">
            <ThemeIcon size={56} radius="xl" color={state === 'error' ? 'red' : 'orange'} variant="light">
              {state === 'error' ? <IconAlertTriangle size={30} /> : <IconLinkOff size={30} />}
            </ThemeIcon>
            <Text fw={700} fz="lg">
              {state === 'error' ? 'Verification failed' : 'Invalid verification link'}
            </Text>
            <Text size="sm" c="dimmed" role="alert">
              {detail}
            </Text>
            <CaptchaField ref={captcha} />
            <Button mt="xs" onClick={() => void onResend()} loading={resend.isPending}>
              Resend verification email
            </Button>
          </Stack>
        )}

        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} title="Having trouble?">
          <List size="sm" spacing={4}>
            <List.Item>Check your spam or junk folder for the verification e-mail.</List.Item>
            <List.Item>Verification links expire after 24 hours.</List.Item>
            <List.Item>Each link works once — use the newest e-mail if you asked for several.</List.Item>
            <List.Item>Still stuck? Resend the verification e-mail and try the new link.</List.Item>
          </List>
        </Alert>
      </Stack>
    </AuthShell>
  );
}
