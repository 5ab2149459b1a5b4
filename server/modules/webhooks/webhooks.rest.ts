import { z } from 'zod';
import { PageQuerySchema } from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  CreatedWebhookSchema,
  CreateWebhookInputSchema,
  UpdateWebhookInputSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookSchema,
} from '../../../shared/schemas/webhooks.js';
import { defineRoute, UnvalidatedParam, TEAM } from '../../rest/route.js';
import * as webhooks from './webhooks.service.js';

const ProjectParams = z.object({ id: UnvalidatedParam });
const WebhookParams = z.object({ id: UnvalidatedParam, webhook_id: UnvalidatedParam });
const DeliveryParams = WebhookParams.extend({ delivery_id: UnvalidatedParam });
const BASE = '/api/v1/projects/:id/webhooks';

/** The event types, for the OpenAPI document (README's list says the same). */
const EVENTS =
  'Event types (`event_types`), all about the project and its end users, never the platform\'s own accounts: ' +
  '`user.created` (sign-up), `user.verified` (address proven), ' +
  '`user.updated` (`{user, changed}`: the end user changed their names, preferences or e-mail address, or the project\'s owner deactivated or reactivated them), ' +
  '`user.deleted` (`{user, by}`: `user` deleted their account, or the `developer` deleted them), ' +
  '`session.created` (sign-in), ' +
  '`session.revoked` (`{session_id, user, reason}`, for sessions ended on purpose: `logout`, `revoked_by_user`, `revoked_by_admin` (the project\'s owner), `oauth_revoked` (the app, at the OpenID Connect revocation endpoint), `refresh_token_reuse`, `authorization_code_reuse`; sessions ended by a password or e-mail change, a deactivation, a device block, a deletion or the idle timeout send none), ' +
  '`login.failed`, `mfa.enabled` (an authenticator app confirmed), `mfa.disabled` (`by`: `user`, or `reset` by the project\'s owner), `device.blocked`, `api_key.created`, `api_key.revoked`; `webhook.test` on request.';

/** A project's webhooks, for its owner: the receivers, their deliveries, a resend and a test event. */
export const webhookRoutes = [
  defineRoute({
    method: 'GET',
    url: BASE,
    access: TEAM,
    params: ProjectParams,
    response: { 200: WebhookListSchema },
    doc: { operationId: 'listWebhooks', tag: 'Projects', summary: "The project's webhooks (secrets are never shown again)" },
    handler: ({ deps, caller, params }) => webhooks.listWebhooks(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'POST',
    url: BASE,
    access: TEAM,
    params: ProjectParams,
    body: CreateWebhookInputSchema,
    response: { 201: CreatedWebhookSchema },
    doc: {
      operationId: 'createWebhook',
      tag: 'Projects',
      summary: 'Add a webhook',
      description:
        `${EVENTS} ` +
        'Events are signed by the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` answered here once (`whsec_…`): verify them with any Standard Webhooks library. Delivery is at least once, retried for about a day after a failure (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), with a 10 s timeout and no redirects followed. Creating, changing and deleting webhooks: at most 30 a minute per developer (429).',
      errors: [409, 429],
    },
    handler: ({ deps, caller, params, body }) => webhooks.createWebhook(deps, caller.session.user, params.id, body, caller.info),
  }),
  defineRoute({
    method: 'PATCH',
    url: `${BASE}/:webhook_id`,
    access: TEAM,
    params: WebhookParams,
    body: UpdateWebhookInputSchema,
    response: { 200: WebhookSchema },
    doc: { operationId: 'updateWebhook', tag: 'Projects', summary: 'Change a webhook (fields left out stay as they are)', errors: [404, 429] },
    handler: ({ deps, caller, params, body }) => webhooks.updateWebhook(deps, caller.session.user, params.id, params.webhook_id, body, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: `${BASE}/:webhook_id`,
    access: TEAM,
    params: WebhookParams,
    response: { 200: MessageSchema },
    doc: { operationId: 'deleteWebhook', tag: 'Projects', summary: 'Delete a webhook and its deliveries', errors: [404, 429] },
    handler: ({ deps, caller, params }) => webhooks.deleteWebhook(deps, caller.session.user, params.id, params.webhook_id, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: `${BASE}/:webhook_id/deliveries`,
    access: TEAM,
    params: WebhookParams,
    query: PageQuerySchema,
    response: { 200: WebhookDeliveryPageSchema },
    doc: { operationId: 'listWebhookDeliveries', tag: 'Projects', summary: "A webhook's deliveries, newest first: status, attempts, last answer", errors: [404] },
    handler: ({ deps, caller, params, query }) => webhooks.listWebhookDeliveries(deps, caller.session.user, params.id, params.webhook_id, query),
  }),
  defineRoute({
    method: 'GET',
    url: `${BASE}/:webhook_id/deliveries/:delivery_id`,
    access: TEAM,
    params: DeliveryParams,
    response: { 200: WebhookDeliveryDetailSchema },
    doc: {
      operationId: 'getWebhookDelivery',
      tag: 'Projects',
      summary: 'A delivery with what its last attempt sent and got back',
      description:
        "The request: the headers sent (with `webhook-signature`; the endpoint's secret is never stored) and the event's JSON body. The answer: its status, headers and first 4 KB of body, as text (`body_truncated` when there was more). `request.headers` is null before the first attempt and for a disabled endpoint; `response` is null when no answer came (see `last_error`); headers and body are null for deliveries recorded before this detail was kept, and for answers from private addresses unless WEBHOOKS_ALLOW_PRIVATE.",
      errors: [404],
    },
    handler: ({ deps, caller, params }) => webhooks.getWebhookDelivery(deps, caller.session.user, params.id, params.webhook_id, params.delivery_id),
  }),
  defineRoute({
    method: 'POST',
    url: `${BASE}/:webhook_id/deliveries/:delivery_id/resend`,
    access: TEAM,
    params: DeliveryParams,
    response: { 201: WebhookDeliverySchema },
    doc: { operationId: 'resendWebhookDelivery', tag: 'Projects', summary: "Send a delivery's event again (a new delivery)", description: 'Resends and test events: at most 10 a minute per developer (429).', errors: [404, 429] },
    handler: ({ deps, caller, params }) => webhooks.resendWebhookDelivery(deps, caller.session.user, params.id, params.webhook_id, params.delivery_id),
  }),
  defineRoute({
    method: 'POST',
    url: `${BASE}/:webhook_id/test`,
    access: TEAM,
    params: WebhookParams,
    response: { 201: z.object({ event_id: z.string() }) },
    doc: { operationId: 'sendTestWebhook', tag: 'Projects', summary: 'Send a webhook.test event to this webhook', description: 'Test events and resends: at most 10 a minute per developer (429).', errors: [404, 409, 429] },
    handler: ({ deps, caller, params }) => webhooks.sendTestWebhook(deps, caller.session.user, params.id, params.webhook_id),
  }),
];
