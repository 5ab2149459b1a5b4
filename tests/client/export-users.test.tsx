import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callsTo, quietStats, renderApp, sampleProject, sampleUser, type Handlers } from './utils';

/**
 * Monitoring → Users → Export users: a plain NDJSON link, or an encrypted file asked for by a POST
 * (the passphrase in the body, never the URL), through the step-up dialog when the server asks for one.
 */
const paged = (key: string, items: unknown[]) => () => ({ [key]: items, total: items.length, page: 1, per_page: 10 });
const handlers: Handlers = {
  'projects.list': () => ({ projects: [sampleProject({ id: 'p_2', name: 'Beta' })] }),
  'projects.monitor.stats': () => quietStats,
  'projects.monitor.users': paged('users', [sampleUser]),
  'auth.stepUp': () => ({ message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' }),
};
const PASSPHRASE = 'correct horse battery staple';

afterEach(() => vi.restoreAllMocks());

async function openDialog() {
  const app = renderApp('/monitoring?project=p_2&tab=users', { user: sampleUser, handlers });
  await screen.findByRole('table', { name: 'Users' });
  await app.user.click(screen.getByRole('button', { name: 'Export users' }));
  return { ...app, dialog: within(await screen.findByRole('dialog', { name: 'Export users' })) };
}

describe('Export users', () => {
  it('links the plain NDJSON export', async () => {
    const { dialog } = await openDialog();
    expect(dialog.getByRole('link', { name: 'Download NDJSON' }).getAttribute('href')).toBe('/api/v1/projects/p_2/users/export');
  });

  it('posts the secrets and the passphrase, steps up when asked, and downloads the encrypted file', async () => {
    const bodies: unknown[] = [];
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      expect(String(input)).toBe('/api/v1/projects/p_2/users/export');
      bodies.push(JSON.parse(String(init?.body)));
      return bodies.length === 1
        ? new Response(JSON.stringify({ detail: 'Confirm it is you to continue', step_up_required: true, step_up_methods: ['password'] }), { status: 401, headers: { 'content-type': 'application/json' } })
        : new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="users-2026-11-26.ndjson.age"' } });
    });
    const created = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const { user, dialog, calls } = await openDialog();

    await user.click(dialog.getByLabelText('Include password hashes (project owner)'));
    await user.click(dialog.getByLabelText('Include authenticator (TOTP) secrets (project owner)'));
    await user.type(dialog.getByLabelText('Passphrase'), PASSPHRASE);
    await user.type(dialog.getByLabelText('Repeat the passphrase'), 'something else');
    expect(dialog.getByText('The two passphrases differ')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Download encrypted file' }).hasAttribute('disabled')).toBe(true);
    await user.clear(dialog.getByLabelText('Repeat the passphrase'));
    await user.type(dialog.getByLabelText('Repeat the passphrase'), PASSPHRASE);
    await user.click(dialog.getByRole('button', { name: 'Download encrypted file' }));

    const stepUp = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.type(stepUp.getByLabelText('Password'), 'Correct-Horse-42');
    await user.click(stepUp.getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(bodies).toEqual([
      { include: ['password_hashes', 'totp_secrets'], passphrase: PASSPHRASE },
      { include: ['password_hashes', 'totp_secrets'], passphrase: PASSPHRASE },
    ]);
    expect(callsTo(calls, 'auth.stepUp')[0]?.input).toEqual({ password: 'Correct-Horse-42' });
  });

  it("shows the server's refusal (a project admin asking for secrets)", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify({ detail: 'Only the project owner can do this' }), { status: 403, headers: { 'content-type': 'application/json' } }));
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByLabelText('Include password hashes (project owner)'));
    await user.type(dialog.getByLabelText('Passphrase'), PASSPHRASE);
    await user.type(dialog.getByLabelText('Repeat the passphrase'), PASSPHRASE);
    await user.click(dialog.getByRole('button', { name: 'Download encrypted file' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Only the project owner can do this');
  });
});
