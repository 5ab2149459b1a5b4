import { Table, Text } from '@mantine/core';
import type { AuditEntry } from '../../../shared/schemas/audit';

type Values = Record<string, unknown> | null;

function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields a change touched: those whose value differs, or every field when only one side was recorded. */
export function changedFields(before: Values, after: Values): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (!before || !after) return keys;
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** An entry's before and after, side by side, one row per changed field. */
export function AuditChanges({ entry }: { entry: Pick<AuditEntry, 'before' | 'after'> }) {
  const fields = changedFields(entry.before, entry.after);
  if (fields.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No field changes recorded.
      </Text>
    );
  }
  return (
    <Table aria-label="Changes" fz="xs" verticalSpacing={4} horizontalSpacing="sm" withRowBorders={false} layout="fixed" miw={280}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={field}>
            <Table.Td ff="monospace">{field}</Table.Td>
            <Table.Td c="red.7" style={{ overflowWrap: 'anywhere' }}>
              {entry.before ? show(entry.before[field]) : '—'}
            </Table.Td>
            <Table.Td c="teal.7" style={{ overflowWrap: 'anywhere' }}>
              {entry.after ? show(entry.after[field]) : '—'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
