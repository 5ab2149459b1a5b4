import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { navigationMessage } from '../../auth/redirect';
import { BackToApp } from '../components/BackToApp';
import { HostedPage } from '../components/HostedPage';
import { useHosted } from '../HostedContext';

/** Where a sign-out without a registered return address ends (and a deleted account, which brings its own words). */
export function SignedOutPage() {
  const { paths, project } = useHosted();
  const message = navigationMessage(useLocation().state);
  return (
    <HostedPage documentTitle="Signed out" title="You are signed out">
      <Stack align="center" ta="center" gap="md" role="status">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconLogout size={28} />
        </ThemeIcon>
        <Text>{message ?? `You have been signed out of ${project.name}.`}</Text>
        <Button component={Link} to={paths.page('sign-in')} fullWidth>
          Sign in
        </Button>
        <BackToApp fullWidth />
      </Stack>
    </HostedPage>
  );
}
