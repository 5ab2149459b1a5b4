import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { BackToApp } from '../components/BackToApp';
import { BackToSignIn } from '../components/BackToSignIn';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { SESSION_KEY, useHosted } from '../HostedContext';
import { useMailedToken } from '../useMailedToken';
import { useHostedT } from '../../i18n/useHostedT';

/** The link mailed to a new address: opened signed in or not, it makes the change once. */
export function ConfirmEmailChangePage() {
  const { api, paths } = useHosted();
  const { t, known } = useHostedT();
  const queryClient = useQueryClient();
  const state = useMailedToken(async (token) => {
    await api.confirmEmailChange(token);
    queryClient.removeQueries({ queryKey: SESSION_KEY });
  }, t('msg.confirmEmailChangeFailed'));

  return (
    <HostedPage documentTitle={t('emailChange.title')} title={t('emailChange.title')} footer={<BackToSignIn />}>
      {state.kind === 'loading' && <StatusPanel kind="loading" title={t('emailChange.changing')} />}
      {state.kind === 'success' && (
        <StatusPanel
          kind="success"
          title={t('emailChange.done')}
          actions={
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to={paths.page('account')}>
                {t('common.continue')}
              </Button>
              <BackToApp />
            </Group>
          }
        >
          {t('emailChange.doneText')}
        </StatusPanel>
      )}
      {state.kind === 'error' && (
        <StatusPanel kind="error" title={t('emailChange.failed')}>
          {t('emailChange.failedText', { detail: known(state.detail) })}
        </StatusPanel>
      )}
      {state.kind === 'invalid' && (
        <StatusPanel kind="invalid" title={t('emailChange.invalid')}>
          {t('msg.emailChangeNoToken')}
        </StatusPanel>
      )}
    </HostedPage>
  );
}
