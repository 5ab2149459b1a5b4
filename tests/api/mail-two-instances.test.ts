import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { until } from '../helpers/until.js';

/**
 * Two instances of one deployment share the outbox and one SMTP server: 50 sign-ups spread over both
 * give 50 mails, none twice. Both poll every 10 ms besides their own nudges, so they race for every
 * row; the lease (SKIP LOCKED on PostgreSQL, the one writer on SQLite) lets only one claim each.
 */
const SIGN_UPS = 50;
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await createTestApp({ env: { MAIL_POLL_MS: '10' }, limits: { signupPerIp: { points: 1000, durationS: 60 } } });
  second = await createTestApp({ sameDatabaseAs: first, env: { MAIL_POLL_MS: '10' }, limits: { signupPerIp: { points: 1000, durationS: 60 } } });
});

afterAll(async () => {
  await second?.close();
  await first?.close();
});

it(`${SIGN_UPS} sign-ups over two instances: ${SIGN_UPS} mails, no duplicates`, { timeout: 60_000 }, async () => {
  // How many mails each instance's dispatcher handed to the SMTP server.
  const sentBy = [0, 0];
  for (const [i, app] of [first, second].entries()) {
    const send = app.deps.mailer.send.bind(app.deps.mailer);
    app.deps.mailer.send = (message) => {
      sentBy[i]! += 1;
      return send(message);
    };
  }
  const emails = Array.from({ length: SIGN_UPS }, (_, i) => uniqueEmail(`pair${i}`));
  const answers = await Promise.all(
    emails.map((email, i) => (i % 2 ? second : first).call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(emails.map(() => 201));
  await until(() => first.mail.messages.length >= SIGN_UPS, `${SIGN_UPS} mails`, 30_000);
  await until(async () => {
    const row = await first.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'sent').executeTakeFirstOrThrow();
    return Number(row.n) === SIGN_UPS;
  }, 'every row marked sent');
  // A second send would come from a pass still in flight: wait until neither has one, and a pass of each finds nothing.
  await Promise.all([first.deps.mailDispatcher.idle(), second.deps.mailDispatcher.idle()]);
  expect(await first.deps.mailDispatcher.runOnce()).toBe(0);
  expect(await second.deps.mailDispatcher.runOnce()).toBe(0);
  const recipients = first.mail.messages.map((m) => m.to).sort();
  expect(recipients).toEqual(emails.map((e) => e.toLowerCase()).sort());
  // Both took part (each is nudged by its own commits), and together sent each mail once.
  expect(sentBy.every((n) => n > 0)).toBe(true);
  expect(sentBy[0]! + sentBy[1]!).toBe(SIGN_UPS);
  const rows = await first.db.selectFrom('mail_outbox').select(['status', 'attempts']).execute();
  expect(rows).toHaveLength(SIGN_UPS);
  expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
});
