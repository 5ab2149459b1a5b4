import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Analytics, AnalyticsQuery } from '../../shared/schemas/projects';
import { customPeriodError, periodFromSearch, periodLabel, writePeriod } from '../../client/components/analytics/period';
import { callsTo, currentPath, renderApp, sampleProject, sampleUser } from './utils';

const project = sampleProject({ id: 'p_1', name: 'Acme Storefront' });

/** An answer of projects.analytics for the period asked, one login a day, and the given breakdowns. */
function answerFor(input: AnalyticsQuery & { id: string }, breakdowns: Partial<Analytics> = {}): Analytics {
  const to = input.to ?? '2026-05-20';
  const count = input.from ? Math.round((Date.parse(to) - Date.parse(input.from)) / 86_400_000) + 1 : (input.days ?? 30);
  const days = Array.from({ length: count }, (_, i) => ({
    day: new Date(Date.parse(to) - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    signups: 1,
    logins: 1,
    failed_logins: 0,
    active_users: 1,
    api_requests: 0,
  }));
  return {
    project_id: input.id,
    from: days[0]!.day,
    to,
    days,
    monthly_active_users: 3,
    sign_ins_by_method: [],
    sign_ins_by_country: [],
    failures_by_reason: [],
    ...breakdowns,
  };
}

function renderAnalytics(path = '/analytics?project=p_1', breakdowns: Partial<Analytics> = {}) {
  return renderApp(path, {
    user: sampleUser,
    handlers: {
      'projects.list': () => ({ projects: [project] }),
      'projects.analytics': (input: unknown) => answerFor(input as AnalyticsQuery & { id: string }, breakdowns),
    },
  });
}

const lastAnalyticsInput = (calls: { path: string; input: unknown }[]) => callsTo(calls, 'projects.analytics').at(-1)?.input;

describe('analytics period', () => {
  it('reads the period from the link and writes it back beside the project', () => {
    expect(periodFromSearch(new URLSearchParams('days=7'))).toEqual({ days: 7 });
    expect(periodFromSearch(new URLSearchParams('from=2026-05-01&to=2026-05-10'))).toEqual({ from: '2026-05-01', to: '2026-05-10' });
    // What the server would refuse falls back to the default.
    expect(periodFromSearch(new URLSearchParams('days=900'))).toEqual({ days: 30 });
    expect(periodFromSearch(new URLSearchParams('from=2026-05-10&to=2026-05-01'))).toEqual({ days: 30 });
    expect(writePeriod(new URLSearchParams('project=p_1&days=7'), { from: '2026-05-01', to: '2026-05-02' }).toString()).toBe('project=p_1&from=2026-05-01&to=2026-05-02');
    expect(writePeriod(new URLSearchParams('project=p_1&from=2026-05-01&to=2026-05-02'), { days: 30 }).toString()).toBe('project=p_1');
  });

  it('says in words what is wrong with a custom range', () => {
    expect(customPeriodError('2026-05-01', '2026-05-01')).toBeNull();
    expect(customPeriodError('2026-05-02', '2026-05-01')).toBe('The start must be on or before the end');
    expect(customPeriodError('2025-01-01', '2026-01-02')).toBe('Choose at most 366 days');
    expect(customPeriodError('', '2026-01-02')).toBe('Choose a start and an end day');
    // Intl puts thin spaces around the dash.
    expect(periodLabel('2026-05-14', '2026-05-20').replace(/\s/g, ' ')).toBe('May 14 – 20, 2026');
  });
});

describe('AnalyticsPage', () => {
  it('asks for the preset chosen and keeps it in the link', async () => {
    const { calls, user } = renderAnalytics();
    expect(await screen.findByText('Apr 21 – May 20, 2026 · 30 days (UTC)')).toBeTruthy();
    expect(lastAnalyticsInput(calls)).toEqual({ id: 'p_1', days: 30 });

    await user.click(screen.getByRole('radio', { name: '7 days' }));
    expect(await screen.findByText('May 14 – 20, 2026 · 7 days (UTC)')).toBeTruthy();
    expect(lastAnalyticsInput(calls)).toEqual({ id: 'p_1', days: 7 });
    expect(currentPath()).toContain('days=7');
    expect(within(screen.getByRole('region', { name: 'Logins' })).getByText('7')).toBeTruthy();
  });

  it('takes a custom range once both days make one, and says why not before', async () => {
    const { calls, user } = renderAnalytics('/analytics?project=p_1&from=2026-05-01&to=2026-05-10');
    expect(await screen.findByText('May 1 – 10, 2026 · 10 days (UTC)')).toBeTruthy();
    expect(lastAnalyticsInput(calls)).toEqual({ id: 'p_1', from: '2026-05-01', to: '2026-05-10' });
    expect((screen.getByRole('radio', { name: 'Custom' }) as HTMLInputElement).checked).toBe(true);

    const asked = callsTo(calls, 'projects.analytics').length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-12' } });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'The start must be on or before the end');
    expect(callsTo(calls, 'projects.analytics')).toHaveLength(asked);

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-14' } });
    expect(await screen.findByText('May 12 – 14, 2026 · 3 days (UTC)')).toBeTruthy();
    expect(lastAnalyticsInput(calls)).toEqual({ id: 'p_1', from: '2026-05-12', to: '2026-05-14' });
    expect(currentPath()).toContain('from=2026-05-12&to=2026-05-14');
    expect(screen.queryByRole('alert')).toBeNull();

    // Back to a preset: the custom fields go.
    await user.click(screen.getByRole('radio', { name: '90 days' }));
    await waitFor(() => expect(lastAnalyticsInput(calls)).toEqual({ id: 'p_1', days: 90 }));
    expect(screen.queryByLabelText('From')).toBeNull();
  });

  it('shows sign-ins by method and by country and failures by reason, in words', async () => {
    renderAnalytics('/analytics?project=p_1', {
      sign_ins_by_method: [
        { method: 'password', succeeded: 12, failed: 3 },
        { method: 'password+code', succeeded: 4, failed: 1 },
        { method: 'github', succeeded: 2, failed: 0 },
        { method: null, succeeded: 1, failed: 0 },
      ],
      sign_ins_by_country: [
        { country_code: 'DE', succeeded: 10, failed: 1 },
        ...['US', 'FR', 'GB', 'NL', 'ES', 'IT', 'SE', 'PL', 'CZ'].map((code) => ({ country_code: code, succeeded: 1, failed: 0 })),
        { country_code: null, succeeded: 0, failed: 2 },
      ],
      failures_by_reason: [
        { reason: 'invalid_credentials', count: 3 },
        { reason: 'mfa_failed', count: 1 },
      ],
    });
    const methods = within(await screen.findByRole('region', { name: 'Sign-ins by method' }));
    expect(methods.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Password12 signed in · 3 failed',
      'Password + code4 signed in · 1 failed',
      'GitHub2 signed in · 0 failed',
      'Unknown1 signed in · 0 failed',
    ]);
    const countries = within(screen.getByRole('region', { name: 'Sign-ins by country' }));
    const rows = countries.getAllByRole('listitem').map((item) => item.textContent);
    expect(rows[0]).toBe('Germany (DE)10 signed in · 1 failed');
    // The top eight, then the rest in one row (the unknown country among them).
    expect(rows).toHaveLength(9);
    expect(rows.at(-1)).toBe('3 other countries2 signed in · 2 failed');
    const reasons = within(screen.getByRole('region', { name: 'Failures by reason' }));
    expect(reasons.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Wrong password3', 'Wrong second factor1']);
  });

  it('says so when the period has no attempts to break down', async () => {
    renderAnalytics();
    const methods = within(await screen.findByRole('region', { name: 'Sign-ins by method' }));
    expect(methods.getByText('No sign-in attempts in this period.')).toBeTruthy();
  });

  it('is in the header for every signed-in user', async () => {
    renderAnalytics();
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe('page');
  });
});
