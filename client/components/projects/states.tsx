import { useEffect, type ReactNode } from 'react';
import { Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { TOAST_DURATION_MS } from '../../../shared/constants';
import { errorMessage } from '../../lib/errors';
import { readableDetail } from '../../lib/readable-errors';
import { notify } from '../../lib/notify';

/**
 * A failed action: the screen's text as the title and, when the server said why, its detail underneath
 * (e.g. 'Failed to create project' / 'Please verify your email first').
 */
export function notifyFailure(fallback: string, error: unknown) {
  const raw = errorMessage(error, fallback);
  if (raw === fallback) {
    notify.error(fallback);
    return;
  }
  notifications.show({ title: fallback, message: readableDetail(raw), color: 'red', autoClose: TOAST_DURATION_MS.error, withBorder: true, closeButtonProps: { 'aria-label': 'Dismiss' } });
}

/** One toast per failed load (not one per render): keyed on the time the query failed. */
export function useLoadErrorToast(failedAt: number, isError: boolean, text: string) {
  useEffect(() => {
    if (isError) notify.error(text);
  }, [failedAt, isError, text]);
}

/** An inline failure with a retry, where the content would be. */
export function ErrorState({ title, error, onRetry }: { title: string; error?: unknown; onRetry?: () => void }) {
  const detail = error ? readableDetail(errorMessage(error, '')) : '';
  return (
    <Card withBorder padding="xl" radius="md" component="section" aria-label={title}>
      <Stack align="center" ta="center" gap="xs" py="md">
        <ThemeIcon size={48} radius="xl" variant="light" color="red">
          <IconAlertTriangle size={26} />
        </ThemeIcon>
        <Text fw={700}>{title}</Text>
        <Text size="sm" c="dimmed" maw={420}>
          {detail || 'Check your connection and try again.'}
        </Text>
        {onRetry && (
          <Button variant="default" size="xs" leftSection={<IconRefresh size={14} />} onClick={onRetry} mt={4}>
            Try again
          </Button>
        )}
      </Stack>
    </Card>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card withBorder padding="xl" radius="md">
      <Stack align="center" ta="center" gap="sm" py="lg">
        <ThemeIcon size={56} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children && (
          <Text c="dimmed" size="sm" maw={460}>
            {children}
          </Text>
        )}
        {action}
      </Stack>
    </Card>
  );
}

/** Placeholder cards while a grid of cards loads. */
export function CardSkeletons({ count = 3, height = 240 }: { count?: number; height?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <Card key={index} withBorder padding="lg" radius="md" h={height} aria-hidden>
          <Group justify="space-between" wrap="nowrap">
            <Skeleton h={18} w="55%" radius="sm" />
            <Skeleton h={18} w={18} circle />
          </Group>
          <Skeleton h={16} w={90} mt="sm" radius="xl" />
          <Skeleton h={12} mt="lg" radius="sm" />
          <Skeleton h={12} w="70%" mt={8} radius="sm" />
          <Skeleton h={36} mt="lg" radius="sm" />
          <Skeleton h={26} mt="md" radius="sm" />
        </Card>
      ))}
    </>
  );
}

export function LoadingRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="status" aria-label={label} aria-busy="true">
      {children}
    </div>
  );
}
