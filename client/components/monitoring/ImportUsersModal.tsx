import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Checkbox, FileInput, Group, Modal, NumberInput, PasswordInput, Progress, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IMPORT_FORMATS, FIREBASE_PARAMS_HEADER, importFileType, type ImportFormat, type ImportJob } from '../../../shared/schemas/user-import';
import { apiErrorMessage } from '../../lib/api-client';
import { usePlatformApi } from '../../lib/platform-api';

const FAILED = 'The file could not be sent. Try again.';
/** Failed lines shown in the dialog; the job keeps the first 1,000 and the API reads them all. */
const SHOWN_ERRORS = 50;

const FORMAT_LABELS: Record<ImportFormat, string> = {
  native: 'This platform (NDJSON or JSON array)',
  auth0: 'Auth0 (user or password-hash export)',
  firebase: 'Firebase (firebase auth:export)',
  supabase: 'Supabase (auth.users as CSV)',
  clerk: 'Clerk (CSV export)',
  cognito: 'Amazon Cognito (CSV, no passwords)',
};
const FORMAT_OPTIONS = IMPORT_FORMATS.map((format) => ({ value: format, label: FORMAT_LABELS[format] }));

interface FirebaseFields {
  signerKey: string;
  saltSeparator: string;
  rounds: number | string;
  memCost: number | string;
}
const NO_FIREBASE: FirebaseFields = { signerKey: '', saltSeparator: 'Bw==', rounds: 8, memCost: 14 };

const STATE_COLORS = { running: 'blue', done: 'green', failed: 'red' } as const;

/**
 * Monitoring → Users → Import users: a file in this platform's format or a provider's own export, sent
 * to POST /api/v1/projects/{id}/users/import as it is (the server spools and streams it), then the job
 * followed until it ends: lines read, users created, failed lines by number and reason. A dry run checks
 * everything and writes nothing. Firebase's hash parameters travel in their header, never the URL.
 */
export function ImportUsersModal({ projectId, opened, onClose, onImported }: { projectId: string; opened: boolean; onClose: () => void; onImported: () => void }) {
  const api = usePlatformApi();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat>('native');
  const [dryRun, setDryRun] = useState(true);
  const [firebase, setFirebase] = useState<FirebaseFields>(NO_FIREBASE);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);

  const base = `/projects/${encodeURIComponent(projectId)}/users/import`;
  const job = useQuery({
    queryKey: ['user-import', projectId, jobId],
    queryFn: () => api.session<ImportJob>('GET', `${base}/${encodeURIComponent(jobId!)}`),
    enabled: jobId !== null,
    refetchInterval: (query) => (query.state.data?.state === 'running' || query.state.data === undefined ? 1000 : false),
  });

  const finished = job.data && job.data.state !== 'running' && !job.data.dry_run && job.data.created > 0 ? job.data.id : null;
  useEffect(() => {
    if (finished) onImported();
    // Once per finished job: the list shows its new users.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [finished]);

  const close = () => {
    setFile(null);
    setFormat('native');
    setDryRun(true);
    setFirebase(NO_FIREBASE);
    setError(null);
    setJobId(null);
    onClose();
  };
  const startAnother = () => {
    setJobId(null);
    setError(null);
  };

  const send = async () => {
    if (!file) return;
    setPending(true);
    setError(null);
    try {
      const headers =
        format === 'firebase'
          ? {
              [FIREBASE_PARAMS_HEADER]: JSON.stringify({
                signer_key: firebase.signerKey.trim(),
                salt_separator: firebase.saltSeparator.trim(),
                rounds: Number(firebase.rounds),
                mem_cost: Number(firebase.memCost),
              }),
            }
          : undefined;
      const query = new URLSearchParams({ format, ...(dryRun && { dry_run: 'true' }) });
      const started = await api.upload<{ job_id: string }>(`${base}?${query}`, file, importFileType(file.name), headers);
      setJobId(started.job_id);
    } catch (caught) {
      setError(apiErrorMessage(caught, FAILED));
    } finally {
      setPending(false);
    }
  };

  const current = job.data;
  return (
    <Modal opened={opened} onClose={close} title="Import users" centered size="lg">
      {jobId === null ? (
        <Stack gap="md">
          <Text size="sm">
            Bring your users with their passwords: they sign in with the password they have, and it is rehashed on their first sign-in. A line whose address is in the project already fails; nothing is overwritten.
          </Text>
          <Select label="Format" data={FORMAT_OPTIONS} value={format} onChange={(value) => value && setFormat(value as ImportFormat)} allowDeselect={false} />
          <FileInput
            label="File"
            description=".ndjson or .jsonl (one user a line), .json, or .csv for Supabase, Clerk and Cognito"
            placeholder="Choose a file"
            accept=".ndjson,.jsonl,.json,.csv,application/x-ndjson,application/json,text/csv"
            value={file}
            onChange={setFile}
            clearable
          />
          {format === 'firebase' && (
            <Stack gap="xs">
              <Text size="xs" c="dimmed">
                Firebase console → Authentication → Users → Password hash parameters.
              </Text>
              <PasswordInput label="Signer key (base64_signer_key)" value={firebase.signerKey} onChange={(event) => setFirebase({ ...firebase, signerKey: event.currentTarget.value })} />
              <SimpleGrid cols={{ base: 1, xs: 3 }}>
                <TextInput label="Salt separator" value={firebase.saltSeparator} onChange={(event) => setFirebase({ ...firebase, saltSeparator: event.currentTarget.value })} />
                <NumberInput label="Rounds" min={1} max={64} value={firebase.rounds} onChange={(rounds) => setFirebase({ ...firebase, rounds })} />
                <NumberInput label="Memory cost" min={1} max={20} value={firebase.memCost} onChange={(memCost) => setFirebase({ ...firebase, memCost })} />
              </SimpleGrid>
            </Stack>
          )}
          <Checkbox label="Dry run: check every line and import nothing" checked={dryRun} onChange={(event) => setDryRun(event.currentTarget.checked)} />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => void send()} loading={pending} disabled={!file || (format === 'firebase' && !firebase.signerKey.trim())}>
              {dryRun ? 'Check the file' : 'Import'}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          {job.error && !current && (
            <Alert color="red" role="alert">
              {apiErrorMessage(job.error, 'The import could not be read. Try again.')}
            </Alert>
          )}
          {current && <ImportProgress job={current} />}
          <Group justify="flex-end" gap="sm">
            {current && current.state !== 'running' && (
              <Button variant="default" onClick={startAnother}>
                {current.dry_run && current.state === 'done' ? 'Back to import' : 'Import another file'}
              </Button>
            )}
            <Button onClick={close}>{current?.state === 'running' ? 'Close (it goes on)' : 'Back to users'}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function ImportProgress({ job }: { job: ImportJob }) {
  const created = job.dry_run ? 'would be created' : 'created';
  return (
    <Stack gap="sm" aria-live="polite">
      <Group gap="xs">
        <Badge color={STATE_COLORS[job.state]} variant="light">
          {job.state === 'running' ? 'Running' : job.state === 'done' ? 'Done' : 'Failed'}
        </Badge>
        {job.dry_run && (
          <Badge color="gray" variant="outline">
            Dry run
          </Badge>
        )}
      </Group>
      {job.state === 'running' && <Progress value={100} animated striped aria-label="Import running" />}
      <Text size="sm">
        {job.lines_read} lines read · {job.created} users {created} · {job.failed} failed
      </Text>
      {job.failure && (
        <Alert color="red" role="alert">
          {job.failure}
        </Alert>
      )}
      {job.errors.length > 0 && (
        // Focusable, so a keyboard can scroll a long list.
        <div role="region" aria-label="Failed lines, scrollable" tabIndex={0} style={{ maxHeight: 280, overflowY: 'auto' }}>
          <Table striped aria-label="Failed lines" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={70}>Line</Table.Th>
                <Table.Th>Reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {job.errors.slice(0, SHOWN_ERRORS).map((failed) => (
                <Table.Tr key={failed.line}>
                  <Table.Td>{failed.line}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{failed.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      {job.errors.length + job.errors_not_listed > SHOWN_ERRORS && (
        <Text size="xs" c="dimmed">
          … and {job.errors.length + job.errors_not_listed - SHOWN_ERRORS} more failed lines (the API's GET …/users/import/{job.id} lists the first 1,000).
        </Text>
      )}
    </Stack>
  );
}
