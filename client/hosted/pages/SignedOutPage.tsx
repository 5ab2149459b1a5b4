import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { HostedPage } from '../components/HostedPage';
import { useHosted } from '../HostedContext';

/** Where a sign-out without a registered return address ends. */
export function SignedOutPage() {
  const { paths, project } = useHosted();
  return (
    <HostedPage documentTitle="Signed out" title="You are signed out">
      <Stack align="center" ta="center" gap="md" role="status">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconLogout size={28} />
        </ThemeIcon>
        <Text>You have been signed out of {project.name}.</Text>
        <Button component={Link} to={paths.page('sign-in')} fullWidth>
          Sign in
        </Button>
      </Stack>
    </HostedPage>
  );
}
