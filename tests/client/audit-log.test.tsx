import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AuditEntry } from '../../shared/schemas/audit';
import { changedFields } from '../../client/components/monitoring/AuditChanges';
import { auditActionLabel } from '../../client/lib/format';
import { callsTo, quietStats, renderApp, sampleAdmin, sampleProject, sampleUser, type Handlers } from './utils';

const admin = sampleAdmin;
const stats = quietStats;

const entry: AuditEntry = {
  id: 'a_1',
  project_id: null,
  actor_id: 'u_admin',
  actor_email: 'root@example.com',
  action: 'user.deactivated',
  target_type: 'user',
  target_id: 'u_2',
  target_label: 'grace@example.com',
  before: { is_active: true, email: 'grace@example.com' },
  after: { is_active: false, email: 'grace@example.com' },
  ip_address: '203.0.113.7',
  user_agent: 'Mozilla/5.0 Firefox/130',
  created_at: '2025-06-01T09:30:00.000Z',
};

const paged = (entries: AuditEntry[]) => (input: unknown) => {
  const q = (input ?? {}) as { page?: number; per_page?: number };
  return { entries, total: entries.length, page: q.page ?? 1, per_page: q.per_page ?? 10 };
};

function adminHandlers(overrides: Handlers = {}): Handlers {
  return { 'admin.stats': () => stats, 'admin.auditLog': paged([entry]), ...overrides };
}

const lastInput = (calls: { path: string; input: unknown }[], path: string) => callsTo(calls, path).at(-1)?.input;

describe('Audit log tab', () => {
  it('lists changes with a readable action, and opens the before/after of one', async () => {
    const { user, calls } = renderApp('/admin?tab=audit', { user: admin, handlers: adminHandlers() });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const row = within(table).getByRole('row', { name: /User deactivated/ });
    expect(within(row).getByText('root@example.com')).toBeTruthy();
    expect(within(row).getByText('grace@example.com')).toBeTruthy();
    expect(within(row).getByText('203.0.113.7')).toBeTruthy();
    expect(lastInput(calls, 'admin.auditLog')).toEqual({ page: 1, per_page: 10 });

    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const changes = await screen.findByRole('table', { name: 'Changes' });
    // Only the field that changed, before then after.
    const changed = within(changes).getByRole('row', { name: /is_active/ });
    expect(within(changed).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['is_active', 'true', 'false']);
    expect(within(changes).queryByRole('row', { name: /^email/ })).toBeNull();
  });

  it('shows a value too large to record whole by its start and its size, marked truncated', async () => {
    const uris = { truncated: true, bytes: 38_956, sha256: 'a'.repeat(64), preview: '["https://app.example/00/aaaa' };
    const everything = { truncated: true, bytes: 10_240, sha256: 'b'.repeat(64), preview: '{"field_0":"xxxx' };
    const big = { ...entry, action: 'project.updated', before: { redirect_uris: [] }, after: { redirect_uris: uris } };
    const huge = { ...entry, id: 'a_2', action: 'settings.updated', before: null, after: everything };
    const { user } = renderApp('/admin?tab=audit', { user: admin, handlers: adminHandlers({ 'admin.auditLog': paged([big, huge]) }) });
    const table = await screen.findByRole('table', { name: 'Audit log' });

    await user.click(within(within(table).getByRole('row', { name: /Project updated/ })).getByRole('button', { name: 'Details' }));
    const changes = await screen.findByRole('table', { name: 'Changes' });
    const row = within(changes).getByRole('row', { name: /redirect_uris/ });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['redirect_uris', '[]', '["https://app.example/00/aaaa… (truncated: 38.0 KB in all)']);

    await user.click(within(within(table).getByRole('row', { name: /Settings updated/ })).getByRole('button', { name: 'Details' }));
    const all = await screen.findByRole('row', { name: /\(all fields\)/ });
    expect(within(all).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['(all fields)', '—', '{"field_0":"xxxx… (truncated: 10.0 KB in all)']);
  });

  it('filters by an action family and by actor (debounced, back to page 1)', async () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ ...entry, id: `a_${i}` }));
    const { user, calls } = renderApp('/admin?tab=audit', {
      user: admin,
      handlers: adminHandlers({ 'admin.auditLog': (input) => ({ ...paged(many)(input), total: 25 }) }),
    });
    await screen.findByRole('table', { name: 'Audit log' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastInput(calls, 'admin.auditLog')).toEqual({ page: 2, per_page: 10 }));

    await user.click(screen.getByRole('textbox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Every user change', hidden: true }));
    await waitFor(() => expect(lastInput(calls, 'admin.auditLog')).toEqual({ page: 1, per_page: 10, action: 'user.' }));

    await user.type(screen.getByRole('textbox', { name: 'Search by actor' }), 'root');
    await waitFor(() => expect(lastInput(calls, 'admin.auditLog')).toEqual({ page: 1, per_page: 10, action: 'user.', actor: 'root' }));
    // One call for the whole word, not one per key.
    expect(callsTo(calls, 'admin.auditLog').filter((call) => (call.input as { actor?: string }).actor !== undefined)).toHaveLength(1);
  });

  it('exports the log as CSV with the filters on screen, a range of days included', async () => {
    const { user, calls } = renderApp('/admin?tab=audit', { user: admin, handlers: adminHandlers() });
    await screen.findByRole('table', { name: 'Audit log' });
    const exportHref = () => screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(exportHref()).toBe('/api/v1/admin/audit-log/export');

    await user.click(screen.getByRole('textbox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Every user change', hidden: true }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-06-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-06-30' } });
    await waitFor(() => expect(lastInput(calls, 'admin.auditLog')).toEqual({ page: 1, per_page: 10, action: 'user.', from: '2025-06-01', to: '2025-06-30T23:59:59.999Z' }));
    expect(exportHref()).toBe('/api/v1/admin/audit-log/export?action=user.&from=2025-06-01&to=2025-06-30T23%3A59%3A59.999Z');
  });

  it('says so when nothing was recorded', async () => {
    renderApp('/admin?tab=audit', { user: admin, handlers: adminHandlers({ 'admin.auditLog': paged([]) }) });
    expect(await screen.findByText('No changes recorded yet.')).toBeTruthy();
  });

  it("shows a project's own log on its monitoring screen", async () => {
    const { calls } = renderApp('/monitoring?project=p_2&tab=audit', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [sampleProject({ id: 'p_2', name: 'Beta' })] }),
        'projects.monitor.stats': () => stats,
        'projects.auditLog': paged([{ ...entry, project_id: 'p_2', action: 'api_key.created', target_type: 'api_key', target_label: 'CI key' }]),
      },
    });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByRole('row', { name: /API key created/ })).toBeTruthy();
    expect(lastInput(calls, 'projects.auditLog')).toEqual({ id: 'p_2', page: 1, per_page: 10 });
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/v1/projects/p_2/audit-log/export');
    expect(callsTo(calls, 'admin.auditLog')).toHaveLength(0);
  });
});

describe('audit helpers', () => {
  it('labels actions in words', () => {
    expect(auditActionLabel('user.mfa_reset')).toBe('User two-factor reset');
    expect(auditActionLabel('connection.saved')).toBe('Sign-in provider saved');
  });

  it('diffs only changed fields, or every field of a one-sided change', () => {
    expect(changedFields({ a: 1, b: 2 }, { a: 1, b: 3 })).toEqual(['b']);
    expect(changedFields(null, { name: 'x', key: 'y' })).toEqual(['name', 'key']);
  });
});
