import { constants } from 'node:os';
import type { MailDeliveryError } from '../../shared/schemas/mail.js';
import { deliveryErrorOf } from '../modules/webhooks/delivery-error.js';

export interface MailFailure {
  category: MailDeliveryError;
  /** No retry can succeed: the server refused the recipient or the message with a 5xx. */
  permanent: boolean;
  /** The server refused the recipient's address for good: the account is marked bounced. */
  bounced: boolean;
}

interface SmtpError {
  code?: string;
  errno?: number;
  responseCode?: number;
}

/** nodemailer's own codes for what failed before the server answered (it replaces the socket's code, keeping its errno). */
const NODEMAILER_CODES: Partial<Record<string, MailDeliveryError>> = { ETIMEDOUT: 'timeout', EDNS: 'dns_failed', ETLS: 'tls' };

/**
 * What a failed send was. nodemailer gives the server's answer as `responseCode` (EENVELOPE when the
 * recipient was refused, EMESSAGE for the message, EAUTH for our login); without one, the socket's own
 * error (nodemailer keeps its code), read as webhooks read theirs.
 */
export function mailFailureOf(failure: unknown): MailFailure {
  const error = (typeof failure === 'object' && failure !== null ? failure : {}) as SmtpError;
  const response = typeof error.responseCode === 'number' ? error.responseCode : null;
  if (error.code === 'EAUTH') return { category: 'auth_failed', permanent: false, bounced: false };
  if (response !== null && response >= 500 && (error.code === 'EENVELOPE' || error.code === 'EMESSAGE')) {
    return { category: 'rejected', permanent: true, bounced: error.code === 'EENVELOPE' };
  }
  if (response !== null && response >= 400) return { category: 'deferred', permanent: false, bounced: false };
  if (error.errno !== undefined && Math.abs(error.errno) === constants.errno.ECONNREFUSED) return { category: 'connect_refused', permanent: false, bounced: false };
  const known = NODEMAILER_CODES[error.code ?? ''];
  if (known) return { category: known, permanent: false, bounced: false };
  const network = deliveryErrorOf(failure);
  const category: MailDeliveryError = network === 'timeout' || network === 'dns_failed' || network === 'tls' || network === 'connect_refused' ? network : 'connection_failed';
  return { category, permanent: false, bounced: false };
}
