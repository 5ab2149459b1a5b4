import { Stack, Text, ThemeIcon } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAppsOff, IconLock } from '@tabler/icons-react';
import { HostedApiError } from '../api';
import { HostedShell } from './HostedShell';

/** What a visitor sees when the project is unknown (404), switched off (403) or cannot be reached. */
export function ProjectUnavailable({ error }: { error: unknown }) {
  const status = error instanceof HostedApiError ? error.status : 0;
  const unknown = status === 404;
  const title = unknown ? 'Unknown application' : 'Application unavailable';
  useDocumentTitle(title);
  const text = unknown
    ? 'There is no application at this address. Check the link you followed, or go back to the app and try again.'
    : status === 403
      ? 'This application is not accepting sign-ins right now. Please try again later or contact its owner.'
      : 'The sign-in page could not be loaded. Check your connection and reload the page.';
  return (
    <HostedShell title={title}>
      <Stack align="center" ta="center" gap="md" role="alert">
        <ThemeIcon size={56} radius="xl" variant="light" color={unknown ? 'gray' : 'orange'} aria-hidden>
          {unknown ? <IconAppsOff size={30} /> : <IconLock size={30} />}
        </ThemeIcon>
        <Text>{text}</Text>
      </Stack>
    </HostedShell>
  );
}
