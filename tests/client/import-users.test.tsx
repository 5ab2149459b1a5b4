import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { ImportJob } from '../../shared/schemas/user-import';
import { callsTo, quietStats, renderApp, sampleProject, sampleUser, type Handlers } from './utils';

/**
 * Monitoring → Users → Import users: the file goes to POST /api/v1/projects/{id}/users/import as it is, with
 * its media type from its name, the format and dry run in the query and Firebase's parameters in their
 * header; the job is then read until it ends, with its failed lines by number.
 */
const paged = (key: string, items: unknown[]) => () => ({ [key]: items, total: items.length, page: 1, per_page: 10 });
const handlers: Handlers = {
  'projects.list': () => ({ projects: [sampleProject({ id: 'p_2', name: 'Beta' })] }),
  'projects.monitor.stats': () => quietStats,
  'projects.monitor.users': paged('users', [sampleUser]),
};
const BASE = '/api/v1/projects/p_2/users/import';

const job = (changes: Partial<ImportJob>): ImportJob => ({
  id: 'job_1',
  state: 'running',
  dry_run: false,
  format: 'native',
  source: 'api',
  lines_read: 0,
  created: 0,
  failed: 0,
  errors: [],
  errors_not_listed: 0,
  failure: null,
  created_at: '2026-11-26T10:00:00.000Z',
  finished_at: null,
  ...changes,
});

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The import routes: the upload answers 202, then the job reads as each of `reads` in turn (the last one repeats). */
function importServer(reads: ImportJob[], upload: { status: number; body: unknown } = { status: 202, body: { job_id: 'job_1', state: 'running' } }) {
  const sent: Sent[] = [];
  let read = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    sent.push({ url, method: init?.method ?? 'GET', headers: { ...(init?.headers as Record<string, string>) }, body: init?.body });
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.startsWith(`${BASE}?`) && init?.method === 'POST') return answer(upload.status, upload.body);
    if (url === `${BASE}/job_1`) return answer(200, reads[Math.min(read++, reads.length - 1)]);
    return answer(404, { detail: 'Not found' });
  });
  return sent;
}

afterEach(() => vi.restoreAllMocks());

/** Mantine's FileInput is a button labelled "File" in front of the hidden file input that takes the upload. */
function fileField(): HTMLInputElement {
  const input = screen.getByRole('dialog', { name: 'Import users' }).querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input in the dialog');
  return input;
}

async function openDialog() {
  const app = renderApp('/monitoring?project=p_2&tab=users', { user: sampleUser, handlers });
  await screen.findByRole('table', { name: 'Users' });
  await app.user.click(screen.getByRole('button', { name: 'Import users' }));
  return { ...app, dialog: within(await screen.findByRole('dialog', { name: 'Import users' })) };
}

describe('Import users', () => {
  it('sends an NDJSON file as it is, follows the job to its end, lists the failed lines, and reloads the users', async () => {
    const sent = importServer([
      job({ lines_read: 2 }),
      job({ state: 'done', lines_read: 3, created: 2, failed: 1, errors: [{ line: 2, reason: 'email: Enter a valid e-mail address' }], finished_at: '2026-11-26T10:00:02.000Z' }),
    ]);
    const { user, dialog, calls } = await openDialog();
    const listReads = callsTo(calls, 'projects.monitor.users').length;

    const file = new File(['{"email":"a@example.com"}\n{"email":"nope"}\n{"email":"b@example.com"}\n'], 'users.ndjson');
    await user.upload(fileField(), file);
    await user.click(dialog.getByLabelText('Dry run: check every line and import nothing'));
    await user.click(dialog.getByRole('button', { name: 'Import' }));

    expect(await dialog.findByText('3 lines read · 2 users created · 1 failed', {}, { timeout: 5000 })).toBeTruthy();
    const failed = within(dialog.getByRole('table', { name: 'Failed lines' }));
    expect(failed.getByRole('row', { name: '2 email: Enter a valid e-mail address' })).toBeTruthy();
    expect(dialog.getByText('Done')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Back to users' })).toBeTruthy();

    expect(sent[0]).toMatchObject({ url: `${BASE}?format=native`, method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: file });
    await waitFor(() => expect(callsTo(calls, 'projects.monitor.users').length).toBeGreaterThan(listReads));
  });

  it('a dry run says what would be created and writes nothing, so the list is not reloaded', async () => {
    const sent = importServer([job({ state: 'done', dry_run: true, lines_read: 1, created: 1, finished_at: '2026-11-26T10:00:01.000Z' })]);
    const { user, dialog, calls } = await openDialog();
    await user.upload(fileField(), new File(['[{"email":"a@example.com"}]'], 'users.json'));
    await user.click(dialog.getByRole('button', { name: 'Check the file' }));

    expect(await dialog.findByText('1 lines read · 1 users would be created · 0 failed')).toBeTruthy();
    expect(dialog.getByText('Dry run')).toBeTruthy();
    expect(sent[0]).toMatchObject({ url: `${BASE}?format=native&dry_run=true`, headers: { 'content-type': 'application/json' } });
    const listReads = callsTo(calls, 'projects.monitor.users').length;
    await user.click(dialog.getByRole('button', { name: 'Back to import' }));
    expect(dialog.getByRole('button', { name: 'Check the file' })).toBeTruthy();
    expect(callsTo(calls, 'projects.monitor.users').length).toBe(listReads);
  });

  it("sends a provider's CSV as CSV and Firebase's parameters in their header, never the URL", async () => {
    const sent = importServer([job({ state: 'done', format: 'firebase', lines_read: 1, created: 1 })]);
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole('textbox', { name: 'Format' }));
    await user.click(await screen.findByRole('option', { name: 'Firebase (firebase auth:export)', hidden: true }));
    await user.upload(fileField(), new File(['{"users":[]}'], 'firebase-users.json'));
    expect(dialog.getByRole('button', { name: 'Check the file' }).hasAttribute('disabled')).toBe(true);
    await user.type(dialog.getByLabelText('Signer key (base64_signer_key)'), 'c2lnbmVyLWtleQ==');
    await user.clear(dialog.getByLabelText('Rounds'));
    await user.type(dialog.getByLabelText('Rounds'), '8');
    await user.click(dialog.getByRole('button', { name: 'Check the file' }));

    await dialog.findByText('Done');
    expect(sent[0]!.url).toBe(`${BASE}?format=firebase&dry_run=true`);
    expect(sent[0]!.url).not.toContain('signer');
    expect(JSON.parse(sent[0]!.headers['x-firebase-hash-params']!)).toEqual({ signer_key: 'c2lnbmVyLWtleQ==', salt_separator: 'Bw==', rounds: 8, mem_cost: 14 });
    expect(sent[0]!.headers['content-type']).toBe('application/json');
  });

  it("shows the server's refusal in the dialog (another import running)", async () => {
    importServer([], { status: 409, body: { detail: 'Another import into this project is running' } });
    const { user, dialog } = await openDialog();
    await user.upload(fileField(), new File(['email\na@example.com\n'], 'users.csv'));
    await user.click(dialog.getByRole('button', { name: 'Check the file' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Another import into this project is running');
  });

  it('a job that failed as a whole says why', async () => {
    importServer([job({ state: 'failed', lines_read: 10, created: 10, failure: 'The server stopped during the import; the lines before it were imported' })]);
    const { user, dialog } = await openDialog();
    await user.upload(fileField(), new File(['{}\n'], 'users.ndjson'));
    await user.click(dialog.getByLabelText('Dry run: check every line and import nothing'));
    await user.click(dialog.getByRole('button', { name: 'Import' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('The server stopped during the import; the lines before it were imported');
    expect(dialog.getByText('Failed')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Import another file' })).toBeTruthy();
  });
});
