import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ACCOUNT_TEXTS } from '../../messages';
import { BackToApp } from '../components/BackToApp';
import { BackToSignIn } from '../components/BackToSignIn';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { SESSION_KEY, useHosted } from '../HostedContext';
import { useMailedToken } from '../useMailedToken';

/** The link mailed to a new address: opened signed in or not, it makes the change once. */
export function ConfirmEmailChangePage() {
  const { api, paths } = useHosted();
  const queryClient = useQueryClient();
  const state = useMailedToken(async (token) => {
    await api.confirmEmailChange(token);
    queryClient.removeQueries({ queryKey: SESSION_KEY });
  }, ACCOUNT_TEXTS.confirmEmailChangeFailed);

  return (
    <HostedPage documentTitle="Confirm your new email" title="Confirm your new email" footer={<BackToSignIn />}>
      {state.kind === 'loading' && <StatusPanel kind="loading" title="Changing your email address…" />}
      {state.kind === 'success' && (
        <StatusPanel
          kind="success"
          title="Email address changed"
          actions={
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to={paths.page('account')}>
                Continue
              </Button>
              <BackToApp />
            </Group>
          }
        >
          Your other sessions were signed out. From now on, sign in with the new address.
        </StatusPanel>
      )}
      {state.kind === 'error' && (
        <StatusPanel kind="error" title="Email change failed">
          {state.detail} Links expire after 1 hour and work once.
        </StatusPanel>
      )}
      {state.kind === 'invalid' && (
        <StatusPanel kind="invalid" title="Invalid email change link">
          {ACCOUNT_TEXTS.emailChangeNoToken}
        </StatusPanel>
      )}
    </HostedPage>
  );
}
