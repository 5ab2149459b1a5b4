import { Table, Text } from '@mantine/core';
import { isTruncatedValue, type AuditEntry, type TruncatedValue } from '../../../shared/schemas/audit';

type Values = Record<string, unknown> | null;

/** The row a `before` or `after` recorded only as a truncated marker stands in. */
const EVERY_FIELD = '(all fields)';

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** A value too large to record whole: its start, and what was left out. */
function showTruncated(value: TruncatedValue): string {
  return `${value.preview}… (truncated: ${sizeOf(value.bytes)} in all)`;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (isTruncatedValue(value)) return showTruncated(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A side recorded whole, or as one marker (when even its fields' markers did not fit): then one row for all of it. */
function fieldsOf(values: Values): Values {
  return isTruncatedValue(values) ? { [EVERY_FIELD]: values } : values;
}

/** The fields a change touched: those whose value differs, or every field when only one side was recorded. */
export function changedFields(before: Values, after: Values): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (!before || !after) return keys;
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** An entry's before and after, side by side, one row per changed field. */
export function AuditChanges({ entry }: { entry: Pick<AuditEntry, 'before' | 'after'> }) {
  const before = fieldsOf(entry.before);
  const after = fieldsOf(entry.after);
  const fields = changedFields(before, after);
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
              {before ? show(before[field]) : '—'}
            </Table.Td>
            <Table.Td c="teal.7" style={{ overflowWrap: 'anywhere' }}>
              {after ? show(after[field]) : '—'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
