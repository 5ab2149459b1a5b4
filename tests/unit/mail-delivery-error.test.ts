import { expect, it } from 'vitest';
import { mailFailureOf } from '../../server/mail/delivery-error.js';

const smtpError = (fields: Record<string, unknown>) => Object.assign(new Error('550 5.1.1 <someone@example.com>: no such user'), fields);

it('reads a failed send as a category: only a 5xx refusal is permanent, only a refused recipient a bounce', () => {
  expect(mailFailureOf(smtpError({ code: 'EENVELOPE', responseCode: 550 }))).toEqual({ category: 'rejected', permanent: true, bounced: true });
  expect(mailFailureOf(smtpError({ code: 'EMESSAGE', responseCode: 554 }))).toEqual({ category: 'rejected', permanent: true, bounced: false });
  expect(mailFailureOf(smtpError({ code: 'EENVELOPE', responseCode: 451 }))).toEqual({ category: 'deferred', permanent: false, bounced: false });
  // Our own login refused is the server's configuration, not the recipient: retried.
  expect(mailFailureOf(smtpError({ code: 'EAUTH', responseCode: 535 }))).toEqual({ category: 'auth_failed', permanent: false, bounced: false });
  // nodemailer replaces the socket's code with ESOCKET and keeps its errno.
  expect(mailFailureOf(smtpError({ code: 'ESOCKET', errno: -111, syscall: 'connect' })).category).toBe('connect_refused');
  expect(mailFailureOf(smtpError({ code: 'ETIMEDOUT' })).category).toBe('timeout');
  expect(mailFailureOf(smtpError({ code: 'EDNS' })).category).toBe('dns_failed');
  expect(mailFailureOf(smtpError({ code: 'ETLS' })).category).toBe('tls');
  expect(mailFailureOf(smtpError({ code: 'ECONNECTION' })).category).toBe('connection_failed');
  expect(mailFailureOf('nonsense')).toEqual({ category: 'connection_failed', permanent: false, bounced: false });
});
