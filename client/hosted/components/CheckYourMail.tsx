import type { ReactNode } from 'react';
import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';

/** The "we sent you a link" state of sign-up, forgot password and resend verification. */
export function CheckYourMail({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Stack align="center" ta="center" gap="md" role="status">
      <ThemeIcon size={56} radius="xl" variant="light" color="teal" aria-hidden>
        <IconMailForward size={30} />
      </ThemeIcon>
      {children}
      {actions}
    </Stack>
  );
}
