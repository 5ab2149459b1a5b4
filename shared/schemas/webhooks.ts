import { z } from 'zod';

/** What a project's webhooks can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.verified',
  'user.updated',
  'user.deleted',
  'session.created',
  'session.revoked',
  'login.failed',
  'mfa.enabled',
  'mfa.disabled',
  'device.blocked',
  'api_key.created',
  'api_key.revoked',
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'organization_membership.created',
  'organization_membership.updated',
  'organization_membership.deleted',
  'organization_invitation.created',
  'organization_invitation.accepted',
  'webhook.test',
] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: `Event types must be among ${WEBHOOK_EVENT_TYPES.join(', ')}` });
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

const WebhookUrlSchema = z
  .string({ error: 'url is required' })
  .trim()
  .max(2000, { error: 'url must be at most 2000 characters' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.hash;
      } catch {
        return false;
      }
    },
    { error: 'url must be an http or https URL without credentials or fragment' },
  );

const EventTypesSchema = z.array(WebhookEventTypeSchema, { error: 'event_types must be a list' }).min(1, { error: 'Choose at least one event type' }).transform((types) => [...new Set(types)]);
const DescriptionSchema = z.string({ error: 'description must be text' }).trim().max(200, { error: 'description must be at most 200 characters' }).nullish().transform((v) => v || null);

export const CreateWebhookInputSchema = z.object({
  url: WebhookUrlSchema,
  description: DescriptionSchema,
  event_types: EventTypesSchema,
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
});
export const UpdateWebhookInputSchema = z.object({
  url: WebhookUrlSchema.optional(),
  description: DescriptionSchema.optional(),
  event_types: EventTypesSchema.optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
});

export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof WebhookSchema>;
/** Answered once, at creation: the Standard Webhooks signing secret (whsec_…). */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: z.string() });
export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) });

/**
 * Why a delivery's last attempt failed, as the project's team sees it: a category, never the
 * resolver's, the socket's or TLS's own text (that goes to the server's log only).
 */
export const WEBHOOK_DELIVERY_ERRORS = {
  dns_failed: 'The host name did not resolve',
  connect_refused: 'The connection was refused',
  timeout: 'No answer within 10 seconds',
  tls: 'The secure connection failed (certificate or handshake)',
  http_status: 'The endpoint answered with a status other than 2xx',
  not_public: 'Not a public address (the server allows public addresses only)',
  connection_failed: 'The connection failed',
  endpoint_disabled: 'The endpoint is disabled',
} as const;
export type WebhookDeliveryError = keyof typeof WEBHOOK_DELIVERY_ERRORS;
export const WEBHOOK_DELIVERY_ERROR_CODES = Object.keys(WEBHOOK_DELIVERY_ERRORS) as [WebhookDeliveryError, ...WebhookDeliveryError[]];

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.enum(WEBHOOK_DELIVERY_ERROR_CODES).nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryPageSchema = z.object({ deliveries: z.array(WebhookDeliverySchema), total: z.number().int(), page: z.number().int(), per_page: z.number().int() });

export const WebhookHeaderSchema = z.object({ name: z.string(), value: z.string() });
export type WebhookHeader = z.infer<typeof WebhookHeaderSchema>;

/**
 * One delivery with what its last attempt sent and got back. `request.body` is the event's JSON as
 * signed and sent; `request.headers` null: nothing was sent yet (or the endpoint was disabled), or the
 * delivery predates this record. `response` null: no answer (see `last_error`); its `headers` and
 * `body` null: not recorded (deliveries from before). The body is the answer's first 4 KB, as text.
 */
export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.extend({
  request: z.object({ headers: z.array(WebhookHeaderSchema).nullable(), body: z.string() }),
  response: z
    .object({
      status_code: z.number().int(),
      headers: z.array(WebhookHeaderSchema).nullable(),
      body: z.string().nullable(),
      /** The body was longer than the 4 KB kept (or stopped arriving). */
      body_truncated: z.boolean(),
    })
    .nullable(),
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetailSchema>;
