import { Button, Group } from '@mantine/core';
import { IconBrandGithub, IconBrandGoogle } from '@tabler/icons-react';

/** Google and GitHub sign-in: shown, not functional yet (they only log). */
export function SocialButtons() {
  return (
    <Group grow gap="sm">
      <Button
        variant="default"
        leftSection={<IconBrandGoogle size={18} />}
        onClick={() => console.log('Google sign-in is not available yet')}
      >
        Google
      </Button>
      <Button
        variant="default"
        leftSection={<IconBrandGithub size={18} />}
        onClick={() => console.log('GitHub sign-in is not available yet')}
      >
        GitHub
      </Button>
    </Group>
  );
}
