import { z } from 'zod';
import { IdParamSchema } from '../../../shared/schemas/admin.js';
import { LocalMailListSchema, LocalMailMessageSchema, MailDeliveryPageSchema, MailDeliveryQuerySchema, MailDeliverySchema } from '../../../shared/schemas/mail.js';
import { defineRoute, ADMIN, TEAM } from '../../rest/route.js';
import { listLocalMails, readLocalMail } from './local-mail.service.js';
import { getMailDeliveries, resendMail } from './mail-deliveries.service.js';

const Id = IdParamSchema.shape.id;
const LIST =
  'Newest first, paged like the other lists; `status` (pending, sent, failed) filters. Each mail is queued in the transaction of the change that caused it and retried for about a day (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) before it is marked failed; a recipient the mail server refuses for good (5xx) fails at once. `last_error_category` says why the last attempt failed, never the server\'s own words. Sent mails are deleted after MAIL_RETENTION_DAYS; failed ones keep their row without the message.';
const RESEND =
  'Queues a copy of a sent or failed mail whose message is still kept (`resendable`); the original keeps its record. Audited as `mail.resent`. 409 while it is still being sent or once its message was dropped; resends to one address count against its hourly mail cap (429). Links in the copy are the original\'s: one spent or expired since stays so.';

/** Admin → Mail: every mail, with resend. */
export const adminMailRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/admin/mail',
    procedure: 'mail',
    access: ADMIN,
    query: MailDeliveryQuerySchema,
    response: { 200: MailDeliveryPageSchema },
    doc: { operationId: 'getAdminMailDeliveries', tag: 'Admin', summary: 'Every mail the server queued: recipient, kind, status, attempts, last error', description: LIST },
    handler: ({ deps, query }) => getMailDeliveries(deps, undefined, query),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/admin/mail/:id/resend',
    procedure: 'resendMail',
    access: ADMIN,
    params: z.object({ id: Id }),
    response: { 201: MailDeliverySchema },
    doc: { operationId: 'resendAdminMail', tag: 'Admin', summary: 'Send a mail again', description: RESEND, errors: [404, 409, 429] },
    handler: ({ deps, caller, params }) => resendMail(deps, { user: caller.session.user, info: caller.info }, undefined, params.id),
  }),
];

/** A project's monitoring → Mail: its end users' mails; resend for its owners and admins. */
export const projectMailRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/mail',
    procedure: 'mail',
    access: TEAM,
    params: z.object({ id: Id }),
    query: MailDeliveryQuerySchema,
    response: { 200: MailDeliveryPageSchema },
    doc: { operationId: 'getProjectMailDeliveries', tag: 'Project monitoring', summary: "The mails sent to the project's end users", description: LIST },
    handler: ({ deps, caller, query }) => getMailDeliveries(deps, caller.scope.projectId!, query),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/mail/:mail_id/resend',
    procedure: 'resendMail',
    access: TEAM,
    params: z.object({ id: Id, mail_id: Id }),
    response: { 201: MailDeliverySchema },
    doc: { operationId: 'resendProjectMail', tag: 'Project monitoring', summary: "Send one of the project's mails again (owners and admins)", description: RESEND, errors: [404, 409, 429] },
    handler: ({ deps, caller, params }) => resendMail(deps, { user: caller.session.user, info: caller.info }, caller.scope.projectId!, params.mail_id),
  }),
];

/** The local demo's Mail page (local-mail.service.ts says who may read it). */
export const localMailRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/local-mail',
    procedure: 'list',
    access: { realm: 'platform', session: 'optional' },
    response: { 200: LocalMailListSchema },
    doc: {
      operationId: 'listLocalMail',
      tag: 'Admin',
      summary: 'The local demo\'s outbox: the newest mails written to DATA_DIR/outbox',
      description:
        'Only without SMTP_URL and with a loopback APP_URL (the local demo; 404 otherwise), for an admin or a browser on the server\'s own machine (403 otherwise), so a new developer finds their verification link without a terminal.',
      errors: [403, 404],
    },
    handler: ({ deps, request }) => listLocalMails(deps, request),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/local-mail/:id',
    procedure: 'message',
    access: { realm: 'platform', session: 'optional' },
    params: z.object({ id: Id }),
    response: { 200: LocalMailMessageSchema },
    doc: { operationId: 'readLocalMail', tag: 'Admin', summary: 'One mail of the local demo\'s outbox: its text and HTML parts', description: 'The same conditions as the list.', errors: [403, 404] },
    handler: ({ deps, request, params }) => readLocalMail(deps, request, params.id),
  }),
];

/** Every mail route. */
export const mailRoutes = [...adminMailRoutes, ...projectMailRoutes, ...localMailRoutes];
