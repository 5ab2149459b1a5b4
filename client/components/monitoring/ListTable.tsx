import { Fragment, useId, type CSSProperties, type ReactNode } from 'react';
import { ActionIcon, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import type { Column } from './ListShell';
import classes from './monitoring.module.css';

interface ListTableProps<Item> {
  label: string;
  list: Item[];
  itemKey: (item: Item) => string;
  columns: Column<Item>[];
  actions?: (item: Item) => ReactNode;
  /** Below this width the table scrolls sideways inside its card instead of squeezing its columns. */
  minWidth: number;
  /** aria-busy and a dimmed look while the page reloads. */
  fetching: { 'aria-busy'?: boolean; style: CSSProperties };
  /** Keys of the rows whose details are open. */
  expanded: ReadonlySet<string>;
  onToggleDetails: (key: string) => void;
}

/**
 * A monitoring list as a table. Columns marked `inDetails` stay out of the row, which then gets a Details
 * toggle opening them underneath: the table keeps to the page width, so the row's actions stay in view.
 */
export function ListTable<Item>({
  label,
  list,
  itemKey,
  columns,
  actions,
  minWidth,
  fetching,
  expanded,
  onToggleDetails,
}: ListTableProps<Item>) {
  const id = useId();
  const rowColumns = columns.filter((column) => !column.inDetails);
  const detailColumns = columns.filter((column) => column.inDetails);
  const hasDetails = detailColumns.length > 0;
  const hasActionCell = Boolean(actions) || hasDetails;

  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table
        className={classes.table}
        aria-label={label}
        verticalSpacing="sm"
        horizontalSpacing="md"
        highlightOnHover
        {...fetching}
      >
        <Table.Thead>
          <Table.Tr>
            {rowColumns.map((column) => (
              <Table.Th key={column.header}>{column.header}</Table.Th>
            ))}
            {hasActionCell && (
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((item) => {
            const key = itemKey(item);
            const open = expanded.has(key);
            const detailsId = `${id}-${key}`;
            return (
              <Fragment key={key}>
                <Table.Tr className={open ? classes.openRow : undefined}>
                  {rowColumns.map((column) => (
                    <Table.Td key={column.header}>{column.cell(item)}</Table.Td>
                  ))}
                  {hasActionCell && (
                    <Table.Td>
                      <Group gap={6} justify="flex-end" wrap="nowrap">
                        {actions?.(item)}
                        {hasDetails && (
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            aria-label="Details"
                            aria-expanded={open}
                            aria-controls={open ? detailsId : undefined}
                            onClick={() => onToggleDetails(key)}
                          >
                            {open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                          </ActionIcon>
                        )}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
                {open && (
                  <Table.Tr id={detailsId} className={classes.detailsRow}>
                    <Table.Td colSpan={rowColumns.length + 1}>
                      <Group gap="xl" align="flex-start">
                        {detailColumns.map((column) => (
                          <Stack key={column.header} gap={2} miw={0} className={classes.detail}>
                            <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.3 }}>
                              {column.header}
                            </Text>
                            {column.cell(item)}
                          </Stack>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
