import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { MonitoredUser } from '../../shared/schemas/admin';
import type { MailDelivery } from '../../shared/schemas/mail';
import type { User } from '../../shared/schemas/user';
import { callsTo, renderApp, sampleProject, sampleUser, trpcError, type Handlers } from './utils';

const admin: User = { ...sampleUser, id: 'u_admin', email: 'root@example.com', first_name: 'Root', last_name: null, role: 'admin' };
const stats = { total_users: 1, active_users: 1, verified_users: 1, failed_logins: 0, successful_logins: 0, total_login_attempts: 0, blocked_vpn_attempts: 0, unique_devices: 0 };

const failed: MailDelivery = {
  id: 'm_1',
  project_id: null,
  user_id: 'u_1',
  recipient: 'gone@example.com',
  kind: 'verification',
  subject: 'Verify your email',
  status: 'failed',
  attempts: 1,
  last_error_category: 'rejected',
  next_attempt_at: null,
  last_attempt_at: '2026-11-25T10:00:00.000Z',
  sent_at: null,
  created_at: '2026-11-25T10:00:00.000Z',
  resendable: true,
};
const sent: MailDelivery = { ...failed, id: 'm_2', recipient: 'ok@example.com', kind: 'newSignInMail', status: 'sent', last_error_category: null, sent_at: '2026-11-25T10:00:01.000Z' };

const paged = (key: string, items: unknown[]) => (input: unknown) => {
  const q = (input ?? { page: 1, per_page: 10 }) as { page: number; per_page: number };
  return { [key]: items, total: items.length, page: q.page, per_page: q.per_page };
};

describe('Mail tab', () => {
  it('lists every mail in the admin area with its status and last error, and resends one', async () => {
    const { user, calls } = renderApp('/admin?tab=mail', {
      user: admin,
      handlers: { 'admin.stats': () => stats, 'admin.mail': paged('deliveries', [failed, sent]), 'admin.resendMail': () => ({ ...failed, id: 'm_3', status: 'pending', attempts: 0 }) },
    });
    const row = await screen.findByRole('row', { name: /gone@example.com/ });
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('Verification')).toBeTruthy();
    expect(within(row).getByText(/refused the recipient or the message for good/)).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /ok@example.com/ })).getByText('New sign in')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Mail queued again')).toBeTruthy();
    expect(callsTo(calls, 'admin.resendMail')[0]?.input).toEqual({ id: 'm_1' });
  });

  const bounced: MonitoredUser = { ...sampleUser, id: 'eu_1', email: 'gone@example.com', mail_bounced_at: '2026-11-25T10:00:00.000Z' };
  const projectHandlers = (): Handlers => ({
    'projects.list': () => ({ projects: [{ ...sampleProject({ id: 'p_1', name: 'Beta' }), role: 'viewer' }] }),
    'projects.monitor.stats': () => stats,
    'projects.monitor.users': paged('users', [bounced]),
    'projects.mail': paged('deliveries', [{ ...failed, project_id: 'p_1' }]),
  });

  it("shows a project's viewer its end users' mails without Resend", async () => {
    const { calls } = renderApp('/monitoring?project=p_1&tab=mail', { user: sampleUser, handlers: projectHandlers() });
    const row = await screen.findByRole('row', { name: /gone@example.com/ });
    expect(within(row).queryByRole('button', { name: 'Resend' })).toBeNull();
    expect(callsTo(calls, 'projects.mail')[0]?.input).toEqual({ id: 'p_1', page: 1, per_page: 10 });

  });

  it('marks a user whose address bounced', async () => {
    renderApp('/monitoring?project=p_1&tab=users', { user: sampleUser, handlers: projectHandlers() });
    const userRow = await screen.findByRole('row', { name: /gone@example.com/ });
    expect(within(userRow).getByText('Mail bounced')).toBeTruthy();
  });
});

describe('Mail page (local demo)', () => {
  const handlers: Handlers = {
    'localMail.list': () => ({ mails: [{ id: 'm_1', to: 'new@example.com', subject: 'Verify your email', date: '2026-11-25T10:00:00.000Z', status: 'sent' }] }),
    'localMail.message': () => ({
      id: 'm_1',
      to: 'new@example.com',
      subject: 'Verify your email',
      date: '2026-11-25T10:00:00.000Z',
      status: 'sent',
      text: 'Confirm your address:\n\nhttp://localhost:3000/verify-email?token=abc\n\nThanks',
      html: '<p>Confirm: <a href="http://localhost:3000/verify-email?token=abc">verify</a></p><script>alert(1)</script>',
    }),
  };

  it('lists the outbox and renders the newest mail: its link clickable, its HTML in a frame without scripts', async () => {
    renderApp('/mail', { handlers });
    expect(await screen.findByRole('heading', { level: 2, name: 'Verify your email' })).toBeTruthy();
    const link = within(screen.getByLabelText('Links in this mail')).getByRole('link');
    expect(link.getAttribute('href')).toBe('http://localhost:3000/verify-email?token=abc');
    const frame = screen.getByTitle('HTML of Verify your email');
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    expect(frame.getAttribute('srcdoc')).toContain('<base target="_blank">');
    expect(screen.getByLabelText('Text of this mail').textContent).toContain('Thanks');
  });

  it("says why there is no outbox when the server refuses (SMTP_URL set)", async () => {
    renderApp('/mail', { handlers: { 'localMail.list': () => { throw trpcError('NOT_FOUND', 'Mail goes out over SMTP (SMTP_URL is set): there is no local outbox to read', 404); } } });
    expect(await screen.findByText(/there is no local outbox/)).toBeTruthy();
  });

  it('points a developer who just signed up to it, from the sign-in page', async () => {
    renderApp({ pathname: '/login', state: { message: 'Developer account created successfully! Please check your email for verification.' } }, { handlers });
    const hint = await screen.findByRole('note');
    expect(within(hint).getByRole('link', { name: 'Open Mail' }).getAttribute('href')).toBe('/mail');
  });
});
