import { z } from 'zod';
import { PageQuerySchema } from './admin.js';

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailDeliveryStatus = (typeof MAIL_STATUSES)[number];

/**
 * Why a mail's last attempt failed, as admins see it: a category, never the SMTP server's own text
 * (it quotes addresses; it goes to the server's log only).
 */
export const MAIL_DELIVERY_ERRORS = {
  rejected: 'The mail server refused the recipient or the message for good (5xx)',
  deferred: 'The mail server asked to try again later (4xx)',
  auth_failed: 'The mail server refused our credentials',
  dns_failed: 'The mail server’s host name did not resolve',
  connect_refused: 'The mail server refused the connection',
  timeout: 'The mail server did not answer in time',
  tls: 'The secure connection failed (certificate or handshake)',
  connection_failed: 'The connection to the mail server failed',
  unreadable: 'The queued mail could not be read (its body was dropped or the master key changed)',
} as const;
export type MailDeliveryError = keyof typeof MAIL_DELIVERY_ERRORS;
export const MAIL_DELIVERY_ERROR_CODES = Object.keys(MAIL_DELIVERY_ERRORS) as [MailDeliveryError, ...MailDeliveryError[]];

export const MailDeliverySchema = z.object({
  id: z.string(),
  /** The recipient's project; null for the platform's own mail (developers, invitations). */
  project_id: z.string().nullable(),
  user_id: z.string().nullable(),
  recipient: z.string(),
  /** What the mail is: verification, password_reset, newSignInMail… */
  kind: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  last_error_category: z.enum(MAIL_DELIVERY_ERROR_CODES).nullable(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  /** Its body is still kept (MAIL_RETENTION_DAYS), so it can be sent again. */
  resendable: z.boolean(),
});
export type MailDelivery = z.infer<typeof MailDeliverySchema>;

export const MailDeliveryPageSchema = z.object({ deliveries: z.array(MailDeliverySchema), total: z.number(), page: z.number(), per_page: z.number() });
export type MailDeliveryPage = z.infer<typeof MailDeliveryPageSchema>;

/** A mail of the local outbox (.eml files written without SMTP_URL), as the dashboard's Mail page lists it. */
export const LocalMailSchema = z.object({
  /** The file's name in DATA_DIR/outbox. */
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  /** When it was queued. */
  date: z.string(),
  status: z.enum(MAIL_STATUSES),
});
export const LocalMailListSchema = z.object({ mails: z.array(LocalMailSchema) });
export const LocalMailMessageSchema = LocalMailSchema.extend({ text: z.string(), html: z.string().nullable() });
export type LocalMail = z.infer<typeof LocalMailSchema>;
export type LocalMailMessage = z.infer<typeof LocalMailMessageSchema>;

/** Paging, and one status (pending, sent, failed) when given. */
export const MailDeliveryQuerySchema = PageQuerySchema.extend({
  status: z.enum(MAIL_STATUSES, { error: 'status must be pending, sent or failed' }).optional(),
});
export type MailDeliveryQuery = z.output<typeof MailDeliveryQuerySchema>;
