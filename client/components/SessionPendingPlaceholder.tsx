import { Group, Skeleton } from '@mantine/core';

/**
 * Where the account menu or Sign in will be, while the session check is pending: the header keeps
 * its shape instead of flashing empty, and assistive technology hears that it is loading.
 */
export function SessionPendingPlaceholder() {
  return (
    <Group gap={8} wrap="nowrap" px={6} visibleFrom="sm" role="status" aria-busy="true" aria-label="Checking your session…">
      <Skeleton height={30} circle />
      <Skeleton height={12} width={96} radius="xl" />
    </Group>
  );
}
