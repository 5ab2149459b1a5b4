import { Button, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { SOCIAL_MESSAGES } from '../../../shared/schemas/social';
import { BackToApp } from '../components/BackToApp';
import { BackToSignIn } from '../components/BackToSignIn';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { useHosted } from '../HostedContext';
import { useMailedToken } from '../useMailedToken';

/**
 * The link mailed when a sign-in with a provider found an account with its address: connects the
 * provider once, then offers to sign in and go on where that sign-in was going (an app's waiting sign-in).
 */
export function LinkAccountPage() {
  const { api, paths, project } = useHosted();
  const state = useMailedToken(api.confirmIdentityLink, SOCIAL_MESSAGES.linkInvalid);
  const returnTo = state.kind === 'success' ? state.answer.return_to : null;
  const signIn = (
    <Group justify="center" gap="sm" mt="xs">
      <Button component={Link} to={paths.page('sign-in', { return_to: returnTo })} replace>
        {returnTo ? `Sign in to continue to ${project.name}` : 'Sign in'}
      </Button>
      <BackToApp />
    </Group>
  );

  return (
    <HostedPage documentTitle="Connect your sign-in" title="Connect your sign-in" footer={<BackToSignIn />}>
      {state.kind === 'loading' && <StatusPanel kind="loading" title="Connecting…" />}
      {state.kind === 'success' && (
        <StatusPanel kind="success" title="Sign-in connected" actions={signIn}>
          {SOCIAL_MESSAGES.linked}
        </StatusPanel>
      )}
      {state.kind === 'error' && (
        <StatusPanel kind="error" title="Could not connect" actions={signIn}>
          {state.detail}
        </StatusPanel>
      )}
      {state.kind === 'invalid' && (
        <StatusPanel kind="invalid" title="Invalid link" actions={signIn}>
          {SOCIAL_MESSAGES.linkInvalid}
        </StatusPanel>
      )}
    </HostedPage>
  );
}
