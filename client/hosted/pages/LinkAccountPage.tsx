import { Button, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { BackToApp } from '../components/BackToApp';
import { BackToSignIn } from '../components/BackToSignIn';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { useHosted } from '../HostedContext';
import { useMailedToken } from '../useMailedToken';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * The link mailed when a sign-in with a provider found an account with its address: connects the
 * provider once, then offers to sign in and go on where that sign-in was going (an app's waiting sign-in).
 */
export function LinkAccountPage() {
  const { api, paths, project } = useHosted();
  const { t, known } = useHostedT();
  const state = useMailedToken(api.confirmIdentityLink, t('msg.linkInvalid'));
  const returnTo = state.kind === 'success' ? state.answer.return_to : null;
  const signIn = (
    <Group justify="center" gap="sm" mt="xs">
      <Button component={Link} to={paths.page('sign-in', { return_to: returnTo })} replace>
        {returnTo ? t('common.signInToContinue', { app: project.name }) : t('common.signIn')}
      </Button>
      <BackToApp />
    </Group>
  );

  return (
    <HostedPage documentTitle={t('link.title')} title={t('link.title')} footer={<BackToSignIn />}>
      {state.kind === 'loading' && <StatusPanel kind="loading" title={t('link.connecting')} />}
      {state.kind === 'success' && (
        <StatusPanel kind="success" title={t('link.done')} actions={signIn}>
          {t('msg.socialLinked')}
        </StatusPanel>
      )}
      {state.kind === 'error' && (
        <StatusPanel kind="error" title={t('link.failed')} actions={signIn}>
          {known(state.detail)}
        </StatusPanel>
      )}
      {state.kind === 'invalid' && (
        <StatusPanel kind="invalid" title={t('link.invalid')} actions={signIn}>
          {t('msg.linkInvalid')}
        </StatusPanel>
      )}
    </HostedPage>
  );
}
