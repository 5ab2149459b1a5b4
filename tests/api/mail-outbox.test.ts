import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_S } from '../../server/db/outbox-lease.js';
import { runRetention } from '../../server/modules/retention/retention.service.js';
import { createTestApp, manualClock, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { SmtpCatcher } from '../helpers/smtp-catcher.js';
import { freePort } from '../helpers/tcp-probe.js';
import { until } from '../helpers/until.js';

/**
 * The mail outbox: every mail is a row written with the change that causes it, sent by the dispatcher
 * with retries on the outbox schedule, refused recipients fail at once and mark the account, and
 * sent rows go after MAIL_RETENTION_DAYS. A real SMTP server (smtp-server) receives; a port where
 * nothing listens is an SMTP server that is down.
 */
const TOKEN = 'scraper-token-0123456789abcdef';
const opened: Array<TestApp | SmtpCatcher> = [];
/** Apps first: an SMTP server waits for its clients' pooled connections to end before it stops. */
async function closeAll() {
  const items = opened.splice(0);
  for (const item of items) if (!(item instanceof SmtpCatcher)) await item.close();
  for (const item of items) if (item instanceof SmtpCatcher) await item.stop();
}
afterEach(closeAll);
afterAll(closeAll);

async function app(env: Record<string, string>, clock = manualClock(new Date())): Promise<TestApp & { clock: typeof clock }> {
  const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, ...env }, clock });
  opened.push(t);
  return Object.assign(t, { clock });
}

const signUp = (t: TestApp, email: string) => t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
const rowsTo = (t: TestApp, email: string) => t.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).execute();
const metric = async (t: TestApp, line: RegExp) => (await t.call('GET', '/metrics', { token: TOKEN })).body.split('\n').find((l) => line.test(l));

describe('delivery', () => {
  it('an SMTP server that is down, then up: the mail arrives, once', async () => {
    const port = await freePort();
    const t = await app({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_POLL_MS: '20' });
    const email = uniqueEmail('down-then-up');
    expect((await signUp(t, email)).statusCode).toBe(201);
    await until(async () => (await rowsTo(t, email))[0]?.attempts === 1, 'the first attempt');
    const [failed] = await rowsTo(t, email);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_error_category: 'connect_refused', sent_at: null });
    expect(Date.parse(failed!.next_attempt_at!) - Date.parse(failed!.last_attempt_at!)).toBe(RETRY_DELAYS_S[0]! * 1000);

    const smtp = await new SmtpCatcher().start(port);
    opened.push(smtp);
    t.clock.advance(RETRY_DELAYS_S[0]!);
    const mail = await smtp.waitFor(email, /verify/i);
    expect(mail.link).toContain('/verify-email?token=');
    await until(async () => (await rowsTo(t, email))[0]?.status === 'sent', 'the row marked sent');
    // An hour on, a pass finds nothing left to send, and none is in flight: still one mail.
    t.clock.advance(3600);
    expect(await t.deps.mailDispatcher.runOnce()).toBe(0);
    await t.deps.mailDispatcher.idle();
    expect(smtp.to(email)).toHaveLength(1);
    expect((await rowsTo(t, email))[0]).toMatchObject({ status: 'sent', attempts: 2, last_error_category: null, next_attempt_at: null, claimed_until: null });
  });

  it('a row holds the message sealed: the link’s token is nowhere in the database in clear text', async () => {
    const t = await app({});
    const email = uniqueEmail('sealed');
    await signUp(t, email);
    const token = new URL((await t.mail.waitFor(email, /verify/i)).link!).searchParams.get('token')!;
    const [row] = await rowsTo(t, email);
    expect(row).toMatchObject({ kind: 'verification', project_id: null, subject: expect.stringMatching(/verify/i) });
    expect(row!.user_id).toEqual(expect.any(String));
    expect(row!.body).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain('verify-email');
  });

  it('retries on the outbox schedule for more than 24 hours, then marks the mail failed', async () => {
    const port = await freePort();
    const t = await app({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_POLL_MS: '0' });
    const email = uniqueEmail('never');
    await signUp(t, email);
    expect(RETRY_DELAYS_S.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600);
    for (const [i, delay] of [0, ...RETRY_DELAYS_S].entries()) {
      t.clock.advance(delay - 1);
      if (i > 0) expect(await t.deps.mailDispatcher.runOnce()).toBe(0);
      t.clock.advance(1);
      expect(await t.deps.mailDispatcher.runOnce()).toBe(1);
    }
    const [row] = await rowsTo(t, email);
    expect(row).toMatchObject({ status: 'failed', attempts: RETRY_DELAYS_S.length + 1, next_attempt_at: null, last_error_category: 'connect_refused' });
    t.clock.advance(30 * 86_400);
    expect(await t.deps.mailDispatcher.runOnce()).toBe(0);
    expect(await metric(t, /^mail_deliveries_total\{outcome="retry"\}/)).toBe(`mail_deliveries_total{outcome="retry"} ${RETRY_DELAYS_S.length}`);
    expect(await metric(t, /^mail_deliveries_total\{outcome="failed"\}/)).toBe('mail_deliveries_total{outcome="failed"} 1');
    expect(await metric(t, /^mail_outbox_pending /)).toBe('mail_outbox_pending 0');
  });

  it('a recipient the SMTP server refuses for good (5xx) fails at once and marks the account bounced, until a mail reaches it', async () => {
    const t = await app({ MAIL_POLL_MS: '20' });
    const email = uniqueEmail('bounce');
    t.mail.refused.add(email.toLowerCase());
    await signUp(t, email);
    await until(async () => (await rowsTo(t, email))[0]?.status === 'failed', 'the mail failed');
    expect((await rowsTo(t, email))[0]).toMatchObject({ attempts: 1, last_error_category: 'rejected', next_attempt_at: null });
    const user = await t.db.selectFrom('users').select(['id', 'mail_bounced_at']).where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    expect(user.mail_bounced_at).toBe(t.clock.now().toISOString());
    expect(await metric(t, /^mail_deliveries_total\{outcome="failed"\}/)).toBe('mail_deliveries_total{outcome="failed"} 1');

    t.mail.refused.clear();
    expect((await t.call('POST', '/api/v1/auth/resend-verification', { body: { email }, ip: uniqueIp() })).statusCode).toBe(200);
    await t.mail.waitFor(email, /verify/i);
    await until(async () => (await t.db.selectFrom('users').select('mail_bounced_at').where('id', '=', user.id).executeTakeFirstOrThrow()).mail_bounced_at === null, 'the bounce cleared');
    expect(await metric(t, /^mail_deliveries_total\{outcome="sent"\}/)).toBe('mail_deliveries_total{outcome="sent"} 1');
  });
});

describe('retention', () => {
  it('deletes sent mails and drops failed mails’ bodies MAIL_RETENTION_DAYS after they were queued', async () => {
    const t = await app({ MAIL_RETENTION_DAYS: '3' });
    const sent = uniqueEmail('kept');
    const refused = uniqueEmail('refused');
    t.mail.refused.add(refused.toLowerCase());
    await signUp(t, sent);
    await signUp(t, refused);
    await t.mail.waitFor(sent, /verify/i);
    await until(async () => (await rowsTo(t, refused))[0]?.status === 'failed', 'the refused mail failed');
    t.clock.advance(3 * 86_400 - 1);
    expect(await runRetention(t.deps)).toMatchObject({ sentMails: 0, failedMailBodies: 0 });
    t.clock.advance(2);
    expect(await runRetention(t.deps)).toMatchObject({ sentMails: 1, failedMailBodies: 1 });
    expect(await rowsTo(t, sent)).toEqual([]);
    expect((await rowsTo(t, refused))[0]).toMatchObject({ status: 'failed', body: null });
  });

  it('a bad MAIL_RETENTION_DAYS stops the start with one line naming it', async () => {
    await expect(createTestApp({ env: { MAIL_RETENTION_DAYS: '0' } })).rejects.toThrow(/^MAIL_RETENTION_DAYS: .*\(got "0"\)$/);
  });
});
