import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { navigationMessage } from '../../auth/redirect';
import { BackToApp } from '../components/BackToApp';
import { HostedPage } from '../components/HostedPage';
import { useHosted } from '../HostedContext';
import { useHostedT } from '../../i18n/useHostedT';

/** Where a sign-out without a registered return address ends (and a deleted account, which brings its own words). */
export function SignedOutPage() {
  const { paths, project } = useHosted();
  const { t, known } = useHostedT();
  const message = navigationMessage(useLocation().state);
  return (
    <HostedPage documentTitle={t('signedOut.documentTitle')} title={t('signedOut.title')}>
      <Stack align="center" ta="center" gap="md" role="status">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconLogout size={28} />
        </ThemeIcon>
        <Text>{message ? known(message) : t('signedOut.text', { app: project.name })}</Text>
        <Button component={Link} to={paths.page('sign-in')} fullWidth>
          {t('common.signIn')}
        </Button>
        <BackToApp fullWidth />
      </Stack>
    </HostedPage>
  );
}
