import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { DashboardStats, Project } from '../../shared/schemas/projects';
import { callsTo, renderApp, sampleProject, sampleUser } from './utils';

const stats = (overrides: Partial<DashboardStats> = {}): DashboardStats => ({
  total_projects: 4,
  active_projects: 3,
  total_api_keys: 7,
  active_api_keys: 5,
  total_project_users: 1812,
  total_api_requests_today: 2450,
  total_api_requests_month: 25_000,
  api_requests_last_7_days: [],
  ...overrides,
});

const project = (id: string, name: string, overrides: Partial<Project> = {}): Project =>
  sampleProject({ id, name, total_users: 10, total_logins: 20, total_signups: 10, created_at: '2025-01-15T10:30:00.000Z', updated_at: '2025-01-15T10:30:00.000Z', ...overrides });

/** Seven days, oldest first, as projects.dashboardStats answers them. */
const lastWeek = (requests: number[]) => requests.map((count, index) => ({ day: `2025-06-0${index + 1}`, requests: count }));

function figure(label: string) {
  return within(screen.getByRole('region', { name: label }));
}

describe('DashboardPage', () => {
  it('shows the figures of projects.dashboardStats, the three newest projects and the week of requests', async () => {
    const projects = [
      project('p_1', 'Acme Storefront', { environment: 'production', total_users: 1284, total_logins: 9432 }),
      project('p_2', 'Mobile Banking', { environment: 'staging' }),
      project('p_3', 'Internal Tools', { is_active: false }),
      project('p_4', 'Partner Portal'),
    ];
    const { calls } = renderApp('/dashboard', {
      user: sampleUser,
      handlers: {
        'projects.dashboardStats': () => stats({ api_requests_last_7_days: lastWeek([31, 2, 3, 4, 5, 6, 307]) }),
        'projects.list': () => ({ projects: projects }),
      },
    });
    expect(await screen.findByText(/Welcome back, Ada!/)).toBeTruthy();
    expect(await figure('Total projects').findByText('4')).toBeTruthy();
    expect(figure('Total projects').getByText('3 active')).toBeTruthy();
    expect(figure('API keys').getByText('7')).toBeTruthy();
    expect(figure('API keys').getByText('5 active')).toBeTruthy();
    expect(figure('Total users').getByText('1,812')).toBeTruthy();
    expect(figure('API requests today').getByText('2,450')).toBeTruthy();
    expect(figure('API requests today').getByText('25,000 this month')).toBeTruthy();

    const recent = within(screen.getByRole('region', { name: 'Recent projects' }));
    expect(recent.getByRole('link', { name: 'Acme Storefront, production, Active' }).getAttribute('href')).toBe('/projects/p_1');
    expect(recent.getByText('1,284 users · 9,432 logins')).toBeTruthy();
    expect(recent.getByRole('link', { name: 'Internal Tools, development, Inactive' })).toBeTruthy();
    expect(recent.queryByText('Partner Portal')).toBeNull();

    // The week comes with the stats (the server sums the projects): no analytics call per project.
    const bars = await screen.findByRole('img', { name: /API requests over the last 7 days/ });
    expect(bars.getAttribute('aria-label')).toContain('Sun, Jun 1 31');
    expect(bars.getAttribute('aria-label')).toContain('Sat, Jun 7 307');
    expect(screen.getByText('358 total')).toBeTruthy();
    expect(callsTo(calls, 'projects.analytics')).toEqual([]);

    // Requests are counted, not measured against a made-up allowance (there is no monthly quota).
    const usage = within(screen.getByRole('region', { name: 'API usage' }));
    expect(usage.getByText('25,000')).toBeTruthy();
    expect(usage.queryByText(/limit/i)).toBeNull();
    expect(usage.queryByRole('progressbar')).toBeNull();
  });

  it('says "Failed to load dashboard data" when the figures cannot be loaded', async () => {
    renderApp('/dashboard', {
      user: sampleUser,
      handlers: {
        'projects.dashboardStats': () => {
          throw new Error('down');
        },
        'projects.list': () => ({ projects: [] }),
      },
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('Failed to load dashboard data').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('quick actions lead to real places', async () => {
    renderApp('/dashboard', {
      user: sampleUser,
      handlers: { 'projects.dashboardStats': () => stats(), 'projects.list': () => ({ projects: [] }) },
    });
    const actions = within(await screen.findByRole('region', { name: 'Quick actions' }));
    expect(actions.getByRole('link', { name: 'Create project' }).getAttribute('href')).toBe('/projects?create=1');
    expect(actions.getByRole('link', { name: 'Manage API keys' }).getAttribute('href')).toBe('/api-keys');
    expect(actions.getByRole('link', { name: 'View analytics' }).getAttribute('href')).toBe('/analytics');
    expect(actions.getByRole('link', { name: 'View API docs' }).getAttribute('href')).toBe('/api-docs');
  });
});
