import type { ReactNode } from 'react';
import { Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLinkOff } from '@tabler/icons-react';

type Kind = 'loading' | 'success' | 'error' | 'invalid';

/** The outcome of a mailed link (verify, reset, e-mail change): working, done, failed, or no token at all. */
export function StatusPanel({ kind, title, children, actions }: { kind: Kind; title: string; children?: ReactNode; actions?: ReactNode }) {
  const failed = kind === 'error' || kind === 'invalid';
  return (
    <Stack align="center" ta="center" gap="sm" py="md" role={failed ? 'alert' : 'status'}>
      {kind === 'loading' ? (
        <Loader />
      ) : (
        <ThemeIcon size={56} radius="xl" variant="light" color={kind === 'success' ? 'teal' : kind === 'error' ? 'red' : 'orange'} aria-hidden>
          {kind === 'success' ? <IconCircleCheck size={32} /> : kind === 'error' ? <IconAlertTriangle size={30} /> : <IconLinkOff size={30} />}
        </ThemeIcon>
      )}
      <Text fw={700} fz="lg">
        {title}
      </Text>
      {children && (
        <Text component="div" size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {children}
        </Text>
      )}
      {actions}
    </Stack>
  );
}
