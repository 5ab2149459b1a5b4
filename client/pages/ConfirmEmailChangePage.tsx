import { useEffect, useRef, useState } from 'react';
import { Anchor, Button, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLinkOff } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../shared/messages';
import { useAuth } from '../auth/AuthProvider';
import { AuthShell } from '../components/AuthShell';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { ACCOUNT_TEXTS } from '../messages';

type ConfirmState = 'loading' | 'success' | 'error' | 'invalid';

/** The link mailed to a new address: opened signed in or not, it makes the change once. */
export function ConfirmEmailChangePage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { status, refreshUser } = useAuth();
  const confirm = trpc.auth.confirmEmailChange.useMutation();
  const [state, setState] = useState<ConfirmState>(token ? 'loading' : 'invalid');
  const [detail, setDetail] = useState<string>(token ? '' : ACCOUNT_TEXTS.emailChangeNoToken);
  const attempted = useRef<string | null>(null);
  const { mutateAsync } = confirm;
  const signedIn = status === 'authenticated';

  useEffect(() => {
    // The link works once: confirm it once, even when React runs effects twice in development, and only
    // once the session is known (a signed-in tab keeps its session; the server needs its cookie).
    if (status === 'loading' || attempted.current === token) return;
    attempted.current = token;
    if (!token) {
      setState('invalid');
      setDetail(ACCOUNT_TEXTS.emailChangeNoToken);
      return;
    }
    setState('loading');
    mutateAsync({ token }).then(
      async () => {
        if (status === 'authenticated') await refreshUser();
        setState('success');
        notify.success(MESSAGES.emailChanged);
      },
      (error: unknown) => {
        const message = errorMessage(error, ACCOUNT_TEXTS.confirmEmailChangeFailed);
        setState('error');
        setDetail(message);
        notify.error(message);
      },
    );
  }, [token, status, mutateAsync, refreshUser]);

  const back = signedIn ? (
    <Anchor component={Link} to="/profile" size="sm">
      Back to your profile
    </Anchor>
  ) : (
    <Anchor component={Link} to="/login" size="sm">
      Back to sign in
    </Anchor>
  );

  return (
    <AuthShell title="Confirm your new email" footer={back} size={480}>
      {state === 'loading' && (
        <Stack align="center" ta="center" gap="sm" py="md" role="status">
          <Loader />
          <Text fw={600}>Changing your email address…</Text>
        </Stack>
      )}

      {state === 'success' && (
        <Stack align="center" ta="center" gap="sm" py="md" role="status">
          <ThemeIcon size={56} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={32} />
          </ThemeIcon>
          <Text fw={700} fz="lg">
            Email address changed
          </Text>
          <Text size="sm" c="dimmed">
            {signedIn ? 'Your other sessions were signed out. From now on, sign in with the new address.' : 'Every session was signed out. Sign in with the new address.'}
          </Text>
          {signedIn ? (
            <Button component={Link} to="/profile">
              Go to your profile
            </Button>
          ) : (
            <Button component={Link} to="/login" state={{ message: ACCOUNT_TEXTS.emailChangedSignIn }} replace>
              Continue to sign in
            </Button>
          )}
        </Stack>
      )}

      {(state === 'error' || state === 'invalid') && (
        <Stack align="center" ta="center" gap="sm" py="md">
          <ThemeIcon size={56} radius="xl" color={state === 'error' ? 'red' : 'orange'} variant="light">
            {state === 'error' ? <IconAlertTriangle size={30} /> : <IconLinkOff size={30} />}
          </ThemeIcon>
          <Text fw={700} fz="lg">
            {state === 'error' ? 'Email change failed' : 'Invalid email change link'}
          </Text>
          <Text size="sm" c="dimmed" role="alert" style={{ wordBreak: 'break-word' }}>
            {detail}
          </Text>
          <Text size="sm" c="dimmed">
            Links expire after 1 hour and work once. To try again, ask for the change again from your profile.
          </Text>
        </Stack>
      )}
    </AuthShell>
  );
}
