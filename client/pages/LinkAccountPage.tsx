import { useEffect, useRef, useState } from 'react';
import { Anchor, Button, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLinkOff } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { SOCIAL_MESSAGES } from '../../shared/schemas/social';
import { AuthShell } from '../components/AuthShell';
import { errorMessage } from '../lib/errors';
import { trpc } from '../lib/trpc';

type LinkState = 'loading' | 'success' | 'error' | 'invalid';

/** The link mailed when a sign-in with a provider found an account with its address: connects the provider once. */
export function LinkAccountPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const confirm = trpc.social.confirmLink.useMutation();
  const [state, setState] = useState<LinkState>(token ? 'loading' : 'invalid');
  const [detail, setDetail] = useState<string>(token ? '' : SOCIAL_MESSAGES.linkInvalid);
  const attempted = useRef<string | null>(null);
  const { mutateAsync } = confirm;

  useEffect(() => {
    // The link works once: spend it once, even when React runs effects twice in development.
    if (!token || attempted.current === token) return;
    attempted.current = token;
    mutateAsync({ token }).then(
      (answer) => {
        setDetail(answer.message);
        setState('success');
      },
      (error: unknown) => {
        setDetail(errorMessage(error, SOCIAL_MESSAGES.linkInvalid));
        setState('error');
      },
    );
  }, [token, mutateAsync]);

  const back = (
    <Anchor component={Link} to="/login" size="sm">
      Back to sign in
    </Anchor>
  );

  return (
    <AuthShell title="Connect your sign-in" footer={back} size={480}>
      {state === 'loading' ? (
        <Stack align="center" ta="center" gap="sm" py="md" role="status">
          <Loader />
          <Text fw={600}>Connecting…</Text>
        </Stack>
      ) : (
        <Stack align="center" ta="center" gap="sm" py="md" role={state === 'success' ? 'status' : 'alert'}>
          <ThemeIcon size={56} radius="xl" color={state === 'success' ? 'teal' : state === 'error' ? 'red' : 'orange'} variant="light" aria-hidden>
            {state === 'success' ? <IconCircleCheck size={32} /> : state === 'error' ? <IconAlertTriangle size={30} /> : <IconLinkOff size={30} />}
          </ThemeIcon>
          <Text fw={700} fz="lg">
            {state === 'success' ? 'Sign-in connected' : state === 'error' ? 'Could not connect' : 'Invalid link'}
          </Text>
          <Text size="sm" c="dimmed">
            {detail}
          </Text>
          <Button component={Link} to="/login" mt="xs" variant={state === 'success' ? 'filled' : 'default'}>
            Sign in
          </Button>
        </Stack>
      )}
    </AuthShell>
  );
}
