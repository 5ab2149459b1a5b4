import { Stack, Text, ThemeIcon } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAppsOff, IconLock } from '@tabler/icons-react';
import { ApiError } from '../../lib/api-client';
import { HostedShell } from './HostedShell';
import { useHostedT } from '../../i18n/useHostedT';

/** What a visitor sees when the project is unknown (404), switched off (403) or cannot be reached. */
export function ProjectUnavailable({ error }: { error: unknown }) {
  const status = error instanceof ApiError ? error.status : 0;
  const unknown = status === 404;
  const { t } = useHostedT();
  const title = unknown ? t('unavailable.unknownTitle') : t('unavailable.unavailableTitle');
  useDocumentTitle(title);
  const text = unknown
    ? t('unavailable.unknown')
    : status === 403
      ? t('unavailable.inactive')
      : t('unavailable.failed');
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
