import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Card, Center, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../../lib/errors';
import { useLoadErrorToast, useMonitor } from './context';
import { ListTable } from './ListTable';
import classes from './monitoring.module.css';
import type { MonitorQuery } from './source';

interface PagedData {
  total: number;
  page: number;
  per_page: number;
}

export interface Column<Item> {
  header: string;
  cell: (item: Item) => ReactNode;
  /** In the table, shown in the row's expandable details instead of a column of its own (a phone's card shows it like any other). */
  inDetails?: boolean;
}

export interface ListShellProps<T extends PagedData, Item> {
  /** Names the table (or, on a phone, the list) for assistive technology: 'Users', 'Login attempts', … */
  label: string;
  query: MonitorQuery<T>;
  items: (data: T) => Item[];
  itemKey: (item: Item) => string;
  /** The first column titles the item's card on a phone. */
  columns: Column<Item>[];
  /** The row's buttons (last column; bottom of the card on a phone). */
  actions?: (item: Item) => ReactNode;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  empty: string;
  /** Below this width the table scrolls sideways inside its card instead of squeezing its columns. */
  minWidth: number;
  footer?: ReactNode;
}

/** For cell text that should stay on one line in the table (dates, e-mails); it may wrap on a phone's card. */
export const NOWRAP = classes.nowrap;

/** Phones get one card per item instead of a wide table. */
const PHONE = '(max-width: 36em)';

/** Loading, failure, empty and paged states of one monitoring list, as a table (or cards on a phone). */
export function ListShell<T extends PagedData, Item>({
  label,
  query,
  items,
  itemKey,
  columns,
  actions: rowActions,
  page,
  perPage,
  onPageChange,
  empty,
  minWidth,
  footer,
}: ListShellProps<T, Item>) {
  const { source } = useMonitor();
  // A project's viewer only looks: the server would refuse every action anyway.
  const actions = source.readOnly ? undefined : rowActions;
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  useLoadErrorToast(query.error);
  const data = query.data;
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const list = data ? items(data) : [];

  // After the last item of a later page goes away (e.g. a revoked session), show the last page that has items.
  useEffect(() => {
    if (data && list.length === 0 && total > 0 && page > pages) onPageChange(pages);
  }, [data, list.length, total, page, pages, onPageChange]);

  // Held here rather than in the table, so open details survive the switch to cards and back (a resize).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggleDetails = useCallback(
    (key: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );

  const fetching = { 'aria-busy': query.isFetching || undefined, style: { opacity: query.isFetching ? 0.75 : 1, transition: 'opacity 120ms' } };
  const [titleColumn, ...otherColumns] = columns;

  let body: ReactNode;
  if (!data && query.isPending && !query.error) {
    body = (
      <Center py="xl">
        <Loader size="md" aria-label={`Loading ${label.toLowerCase()}`} />
      </Center>
    );
  } else if (!data) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} m={phone ? 0 : 'md'}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">{errorMessage(query.error, source.loadFailedText)}</Text>
          <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  } else if (list.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="xl" px="md">
        {empty}
      </Text>
    );
  } else if (phone) {
    body = (
      <Stack component="ul" aria-label={label} gap="sm" p={0} m={0} className={classes.cards} {...fetching}>
        {list.map((item) => (
          <Card component="li" key={itemKey(item)} withBorder radius="md" padding="sm">
            <Stack gap={8}>
              {titleColumn && (
                <Box fw={600} className={classes.cardTitle}>
                  {titleColumn.cell(item)}
                </Box>
              )}
              {otherColumns.map((column) => (
                <Group key={column.header} justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                  <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ flexShrink: 0, letterSpacing: 0.3 }} pt={2}>
                    {column.header}
                  </Text>
                  <Box ta="right" miw={0} className={classes.cardValue}>
                    {column.cell(item)}
                  </Box>
                </Group>
              ))}
              {actions && (
                <Group gap="xs" justify="flex-end" pt={4}>
                  {actions(item)}
                </Group>
              )}
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  } else {
    body = (
      <ListTable
        label={label}
        list={list}
        itemKey={itemKey}
        columns={columns}
        actions={actions}
        minWidth={minWidth}
        fetching={fetching}
        expanded={expanded}
        onToggleDetails={toggleDetails}
      />
    );
  }

  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  const paging = total > perPage && (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        {first}–{last} of {total}
      </Text>
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onPageChange}
        size="sm"
        siblings={phone ? 0 : 1}
        boundaries={1}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
      />
    </Group>
  );

  if (phone) {
    return (
      <Stack gap="sm">
        {body}
        {paging}
        {footer}
      </Stack>
    );
  }
  return (
    <Card withBorder radius="md" padding={0}>
      {body}
      {(paging || footer) && (
        <Stack gap="xs" px="md" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          {paging}
          {footer}
        </Stack>
      )}
    </Card>
  );
}
