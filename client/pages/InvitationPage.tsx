import { Alert, Anchor, Button, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { TEAM_MESSAGES } from '../../shared/schemas/teams';
import { useAuth } from '../auth/AuthProvider';
import { AuthShell } from '../components/AuthShell';
import { errorMessage } from '../lib/errors';
import { formatDate } from '../lib/format';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';

/** The link mailed with an invitation to a project's team: shows what it is for, then joins once signed in with the invited address. */
export function InvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const location = useLocation();
  const navigate = useNavigate();
  const { status, user, signOut } = useAuth();
  const utils = trpc.useUtils();
  // A POST on the server (the token stays out of URLs and logs), read here like any other query.
  const preview = useQuery({
    queryKey: ['teams.previewInvitation', token],
    queryFn: () => utils.client.teams.previewInvitation.mutate({ token }),
    enabled: token !== '',
    retry: false,
  });
  const accept = trpc.teams.acceptInvitation.useMutation();

  const onAccept = async () => {
    try {
      const joined = await accept.mutateAsync({ token });
      notify.success(joined.message);
      await utils.projects.list.invalidate();
      navigate(`/projects/${encodeURIComponent(joined.project_id)}`);
    } catch {
      // Shown below from the mutation's error.
    }
  };

  const back = (
    <Anchor component={Link} to={status === 'authenticated' ? '/projects' : '/login'} size="sm">
      {status === 'authenticated' ? 'Go to your projects' : 'Back to sign in'}
    </Anchor>
  );

  if (!token || preview.isError) {
    return (
      <AuthShell title="Team invitation" footer={back} size={480}>
        <Stack align="center" ta="center" gap="sm" py="md" role="alert">
          <ThemeIcon size={56} radius="xl" color="orange" variant="light" aria-hidden>
            <IconAlertTriangle size={30} />
          </ThemeIcon>
          <Text fw={700} fz="lg">
            Invalid invitation
          </Text>
          <Text size="sm" c="dimmed">
            {preview.isError ? errorMessage(preview.error, TEAM_MESSAGES.invitationInvalid) : TEAM_MESSAGES.invitationInvalid} Ask the person who invited you for a new one.
          </Text>
        </Stack>
      </AuthShell>
    );
  }

  if (preview.isPending || status === 'loading') {
    return (
      <AuthShell title="Team invitation" footer={back} size={480}>
        <Stack align="center" py="md" role="status">
          <Loader aria-label="Loading the invitation" />
        </Stack>
      </AuthShell>
    );
  }

  const invitation = preview.data;
  const here = { pathname: location.pathname, search: location.search, hash: '' };
  const otherAccount = user !== null && user.email.toLowerCase() !== invitation.email.toLowerCase();
  return (
    <AuthShell title="Team invitation" footer={back} size={480}>
      <Stack align="center" ta="center" gap="sm" py="md">
        <ThemeIcon size={56} radius="xl" color="blue" variant="light" aria-hidden>
          <IconUsersGroup size={30} />
        </ThemeIcon>
        <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          Join {invitation.project_name}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {invitation.invited_by ?? 'A team member'} invited <b>{invitation.email}</b> as {invitation.role === 'admin' ? 'an admin' : `a ${invitation.role}`}. The link works until{' '}
          {formatDate(invitation.expires_at)}.
        </Text>
        {accept.isError && (
          <Alert color="red" variant="light" role="alert" w="100%">
            {errorMessage(accept.error, 'Could not accept the invitation')}
          </Alert>
        )}
        {status !== 'authenticated' ? (
          <Stack gap="xs" align="center">
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to="/login" state={{ from: here }}>
                Sign in to accept
              </Button>
              <Button component={Link} to="/signup" variant="default">
                Create an account
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              New here? Create an account with {invitation.email}, confirm the address, then open this link again.
            </Text>
          </Stack>
        ) : otherAccount ? (
          <Stack gap="xs" align="center" w="100%">
            <Alert color="orange" variant="light" w="100%">
              You are signed in as {user.email}. {TEAM_MESSAGES.invitationOtherAccount}.
            </Alert>
            <Button variant="default" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Stack>
        ) : (
          <Button mt="xs" onClick={() => void onAccept()} loading={accept.isPending}>
            Accept invitation
          </Button>
        )}
      </Stack>
    </AuthShell>
  );
}
