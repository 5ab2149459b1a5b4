import { Button, Group } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import type { LinkNext } from '../../../shared/schemas/hosted';
import { safeReturnTo } from '../../auth/redirect';
import { useHosted } from '../HostedContext';
import { useSignedIn } from '../useSignedIn';
import { BackToApp } from './BackToApp';
import { HostedSecondFactor } from './HostedSecondFactor';
import { StatusPanel } from './StatusPanel';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * What a mailed link's page shows once the link did its work and it carried an app's sign-in: go on
 * to the app (signed in), the second factor first, the password in this other browser, or the news
 * that the app's sign-in is over with the way back to the app.
 */
export function LinkNextStep({ next, done }: { next: Exclude<LinkNext, null>; done: string }) {
  const { project, paths } = useHosted();
  const { t } = useHostedT();
  const navigate = useNavigate();
  // The server checked the return_to it stored; the page checks it again, as every navigation it makes.
  const continues =
    next.kind === 'expired' ? { interaction: null, return_to: null } : { interaction: next.interaction, return_to: safeReturnTo(next.return_to, `${paths.base}/`) };
  const signedIn = useSignedIn(continues.interaction, continues.return_to);

  if (next.kind === 'second_factor') {
    return <HostedSecondFactor challenge={next.challenge} onSignedIn={signedIn} onCancel={() => navigate(paths.page('sign-in', continues), { replace: true })} />;
  }
  if (next.kind === 'signed_in') {
    return (
      <StatusPanel
        kind="success"
        title={done}
        actions={
          <Button mt="xs" onClick={signedIn} data-autofocus>
            {t('common.continueToApp', { app: project.name })}
          </Button>
        }
      >
        {t('next.signedIn')}
      </StatusPanel>
    );
  }
  if (next.kind === 'sign_in') {
    return (
      <StatusPanel
        kind="success"
        title={done}
        actions={
          <Button component={Link} to={paths.page('sign-in', { ...continues, login_hint: next.email })} replace mt="xs">
            {t('common.signInToContinue', { app: project.name })}
          </Button>
        }
      >
        {t('next.otherBrowser')}
      </StatusPanel>
    );
  }
  return (
    <StatusPanel
      kind="invalid"
      title={done}
      actions={
        <Group justify="center" gap="sm" mt="xs">
          <BackToApp variant="filled" />
          <Button component={Link} to={paths.page('sign-in')} variant="default" replace>
            {t('common.signIn')}
          </Button>
        </Group>
      }
    >
      {t('next.expired', { app: project.name })}
    </StatusPanel>
  );
}
