import type { FastifyRequest } from 'fastify';
import type { LocalMail, LocalMailMessage } from '../../../shared/schemas/mail.js';
import { isEffectiveAdmin } from '../../../shared/schemas/user.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { openMail } from '../../mail/outbox.js';
import { findMail } from '../../mail/outbox.repo.js';
import { authenticateIfSignedIn, readAccessToken } from '../sessions/request-auth.js';
import { listRecentMails } from './mail-deliveries.repo.js';

export const LOCAL_MAIL_MESSAGES = {
  smtp: 'Mail goes out over SMTP (SMTP_URL is set): there is no local outbox to read',
  notLocal: 'The Mail page is for the local demo only (SMTP_URL unset and a loopback APP_URL)',
  refused: 'The Mail page is for admins, or for a browser on the machine the server runs on',
  notFound: 'Mail not found',
};
/** The newest mails the page lists. */
export const LOCAL_MAIL_LIMIT = 50;

const isLoopbackIp = (ip: string) => ip === '::1' || /^(::ffff:)?127\./.test(ip);
/** A host name of this machine: another site's name that resolves here (DNS rebinding) is not one. */
const isLoopbackHost = (hostname: string) => ['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/**
 * Who may read the local outbox (what the server wrote to DATA_DIR/outbox without SMTP_URL): only in
 * the local demo (SMTP_URL unset and a loopback APP_URL, where the log prints the links anyway), and
 * then an admin, or any browser on the server's own machine, since a brand-new developer is not an
 * admin yet and needs the verification link to become one, when it asks under one of the machine's own
 * names (a web page of another site rebound to 127.0.0.1 asks under its own). Behind a trusted proxy every request comes
 * from the proxy's address, so only admins. Elsewhere the outbox holds everyone's links: 404.
 */
export async function requireLocalMailReader(deps: Deps, request: FastifyRequest): Promise<void> {
  if (deps.config.smtpUrl) throw new AppError('NOT_FOUND', LOCAL_MAIL_MESSAGES.smtp);
  if (!deps.config.logMailLinks) throw new AppError('NOT_FOUND', LOCAL_MAIL_MESSAGES.notLocal);
  if (deps.config.trustProxy === false && isLoopbackIp(request.ip) && isLoopbackHost(request.hostname)) return;
  const auth = await authenticateIfSignedIn(deps, deps.platform, readAccessToken(request, deps.platform));
  if (auth && isEffectiveAdmin({ role: auth.user.role, is_verified: auth.user.is_verified === 1 })) return;
  throw new AppError('FORBIDDEN', LOCAL_MAIL_MESSAGES.refused);
}

/** The newest mails of the outbox whose message is still kept (MAIL_RETENTION_DAYS), newest first. */
export async function listLocalMails(deps: Deps, request: FastifyRequest): Promise<{ mails: LocalMail[] }> {
  await requireLocalMailReader(deps, request);
  const rows = await listRecentMails(deps.db, LOCAL_MAIL_LIMIT);
  return { mails: rows.map((row) => ({ id: row.id, to: row.recipient, subject: row.subject, date: row.created_at, status: row.status })) };
}

/** One mail as it was written to its .eml file: the text part and the HTML part. */
export async function readLocalMail(deps: Deps, request: FastifyRequest, id: string): Promise<LocalMailMessage> {
  await requireLocalMailReader(deps, request);
  const row = await findMail(deps.db, id);
  if (!row || row.body === null) throw new AppError('NOT_FOUND', LOCAL_MAIL_MESSAGES.notFound);
  const message = openMail(deps, row);
  return { id: row.id, to: row.recipient, subject: row.subject, date: row.created_at, status: row.status, text: message.text, html: message.html || null };
}
