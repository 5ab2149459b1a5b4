import { Fragment, useMemo, useState } from 'react';
import {
  Accordion,
  Badge,
  Box,
  Card,
  Code,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFileOff, IconLock, IconLockOpen, IconSearch } from '@tabler/icons-react';
import type { Field, HttpMethod, Reference, ReferenceOperation } from './openapi';

export const METHOD_COLORS: Record<HttpMethod, string> = {
  GET: 'teal',
  POST: 'indigo',
  PUT: 'orange',
  PATCH: 'yellow',
  DELETE: 'red',
  HEAD: 'gray',
  OPTIONS: 'gray',
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return (
    <Badge color={METHOD_COLORS[method]} variant="light" radius="sm" w={68} style={{ flexShrink: 0 }}>
      {method}
    </Badge>
  );
}

function statusColor(status: string): string {
  if (status.startsWith('2')) return 'teal';
  if (status.startsWith('3')) return 'blue';
  if (status.startsWith('4')) return 'orange';
  if (status.startsWith('5')) return 'red';
  return 'gray';
}

/** A path that may break after each slash on narrow screens, never inside a segment. */
export function BreakablePath({ path }: { path: string }) {
  // Plain text nodes with <wbr> between them (no wrappers), so the path still reads as one piece of text.
  const parts = path.split('/');
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {index > 0 ? `/${part}` : part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * Fields as a list rather than a table: name, type and notes stack the same way on a phone and a desktop,
 * so nothing gets squeezed into one-letter columns at 375 px.
 */
function FieldList({ fields }: { fields: (Field & { in?: string })[] }) {
  return (
    <Stack
      gap={0}
      component="ul"
      style={{ listStyle: 'none', padding: 0, margin: 0, border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}
    >
      {fields.map((field, index) => (
        <Box
          component="li"
          key={`${field.in ?? ''}${field.name}`}
          px="sm"
          py={8}
          style={index ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
        >
          <Group gap={8} wrap="wrap" align="baseline">
            <Code fw={600}>{field.name}</Code>
            {field.required && (
              <Text span c="red" fw={700} size="sm" ml={-4} aria-label="required" title="required">
                *
              </Text>
            )}
            <Text span size="sm" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {field.type}
            </Text>
            {field.in && (
              <Badge size="xs" variant="outline" color="gray" tt="none">
                in {field.in}
              </Badge>
            )}
          </Group>
          {field.description && (
            <Text size="sm" c="dimmed" mt={2}>
              {field.description}
            </Text>
          )}
        </Box>
      ))}
    </Stack>
  );
}

function OperationDetails({ operation }: { operation: ReferenceOperation }) {
  const open = operation.auth.every((auth) => auth === 'None');
  return (
    <Stack gap="md">
      {operation.description && operation.description !== operation.summary && (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {operation.description}
        </Text>
      )}
      <Group gap="xs">
        {open ? <IconLockOpen size={16} aria-hidden /> : <IconLock size={16} aria-hidden />}
        <Text size="sm" fw={600}>
          Auth:
        </Text>
        {operation.auth.map((auth) => (
          <Badge key={auth} variant="outline" color={open ? 'gray' : 'indigo'} tt="none" radius="sm">
            {auth}
          </Badge>
        ))}
      </Group>
      {operation.parameters.length > 0 && (
        <Box>
          <Text size="sm" fw={600} mb={6}>
            Parameters
          </Text>
          <FieldList fields={operation.parameters} />
        </Box>
      )}
      {operation.body && (
        <Box>
          <Text size="sm" fw={600} mb={6}>
            Request body{' '}
            <Text span size="xs" c="dimmed" fw={400}>
              {operation.body.contentType}
              {operation.body.required ? '' : ' · optional'}
            </Text>
          </Text>
          {operation.body.fields.length > 0 ? (
            <FieldList fields={operation.body.fields} />
          ) : (
            <Text size="sm" c="dimmed">
              {operation.body.type ?? 'No fields'}
            </Text>
          )}
        </Box>
      )}
      {operation.responses.length > 0 && (
        <Box>
          <Text size="sm" fw={600} mb={6}>
            Responses
          </Text>
          <Stack gap={6}>
            {operation.responses.map((response) => (
              <Group key={response.status} gap="sm" wrap="nowrap" align="flex-start">
                <Badge variant="light" color={statusColor(response.status)} radius="sm" w={52} style={{ flexShrink: 0 }}>
                  {response.status}
                </Badge>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {response.description}
                  {response.schema && response.schema !== 'object' && (
                    <>
                      {' '}
                      <Code fz="xs">{response.schema}</Code>
                    </>
                  )}
                </Text>
              </Group>
            ))}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}

function matches(operation: ReferenceOperation, query: string): boolean {
  const haystack = `${operation.method} ${operation.path} ${operation.summary} ${operation.description ?? ''}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** The OpenAPI reference: a filter, then one card per tag with its operations as an accordion. */
export function ApiReference({ reference }: { reference: Reference }) {
  const [query, setQuery] = useState('');
  const groups = useMemo(
    () =>
      reference.groups
        .map((group) => ({ ...group, operations: group.operations.filter((operation) => matches(operation, query)) }))
        .filter((group) => group.operations.length > 0),
    [reference, query],
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {reference.title}
            {reference.version ? ` · version ${reference.version}` : ''} · {reference.count} endpoints
          </Text>
          {reference.servers.length > 0 && (
            <Text size="sm" c="dimmed">
              Base URL: <Code>{new URL(reference.servers[0]!, window.location.origin).toString().replace(/\/$/, '')}</Code>
            </Text>
          )}
        </Stack>
        <TextInput
          aria-label="Filter endpoints"
          placeholder="Filter endpoints"
          leftSection={<IconSearch size={16} />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
        />
      </Group>
      {groups.length === 0 && (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          No endpoint matches “{query}”.
        </Text>
      )}
      {groups.map((group) => (
        <Card key={group.tag} withBorder radius="md" padding={0} component="section" aria-label={`${group.tag} endpoints`}>
          <Box p="lg" pb="sm">
            <Title order={3} fz="md">
              {group.tag}
            </Title>
            {group.description && (
              <Text size="sm" c="dimmed" mt={2}>
                {group.description}
              </Text>
            )}
          </Box>
          <OperationList operations={group.operations} />
        </Card>
      ))}
    </Stack>
  );
}

/**
 * A group's operations, each opening to its details. The details are rendered only while open: with
 * every operation of the server listed, rendering them all closed made the page's DOM several times
 * larger (and slower to load and to check) for what nobody was reading.
 */
function OperationList({ operations }: { operations: ReferenceOperation[] }) {
  const [open, setOpen] = useState<string[]>([]);
  return (
    <Accordion variant="default" chevronPosition="right" multiple value={open} onChange={setOpen}>
      {operations.map((operation) => (
        <Accordion.Item key={operation.id} value={operation.id}>
          <Accordion.Control aria-label={`${operation.method} ${operation.path}`}>
            <Group gap="sm" wrap="nowrap" align="center">
              <MethodBadge method={operation.method} />
              <Stack gap={0} miw={0}>
                <Text ff="monospace" size="sm" fw={600} style={{ overflowWrap: 'break-word' }} td={operation.deprecated ? 'line-through' : undefined}>
                  <BreakablePath path={operation.path} />
                </Text>
                {operation.summary && (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {operation.summary}
                  </Text>
                )}
              </Stack>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>{open.includes(operation.id) && <OperationDetails operation={operation} />}</Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

export function ReferenceSkeleton() {
  return (
    <Stack gap="md" role="status" aria-label="Loading the API reference">
      {[0, 1].map((index) => (
        <Card key={index} withBorder radius="md" padding="lg" aria-hidden>
          <Skeleton h={18} w={160} radius="sm" mb="md" />
          {[0, 1, 2].map((row) => (
            <Group key={row} gap="sm" mb="sm" wrap="nowrap">
              <Skeleton h={20} w={68} radius="sm" />
              <Skeleton h={16} radius="sm" />
            </Group>
          ))}
        </Card>
      ))}
    </Stack>
  );
}

export function ReferenceUnavailable() {
  return (
    <Card withBorder radius="md" padding="xl">
      <Stack align="center" ta="center" gap="xs">
        <IconFileOff size={32} color="var(--mantine-color-dimmed)" aria-hidden />
        <Text fw={600}>The full reference is not available on this server yet</Text>
        <Text size="sm" c="dimmed" maw={520}>
          The public endpoints above and the curl example cover what your backend needs. When the server publishes its
          OpenAPI document at <Code>/api/openapi.json</Code>, every endpoint appears here with its fields and errors.
        </Text>
      </Stack>
    </Card>
  );
}
