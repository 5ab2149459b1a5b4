import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { PageQuery } from '../../../shared/schemas/admin.js';
import {
  WEBHOOK_DELIVERY_ERRORS,
  type CreateWebhookInputSchema,
  type UpdateWebhookInputSchema,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryError,
  type WebhookHeader,
} from '../../../shared/schemas/webhooks.js';
import type { Deps } from '../../deps.js';
import type { UserRow, WebhookEndpointsTable } from '../../db/schema.js';
import type { Selectable } from 'kysely';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { changedFields, recordChange } from '../changes/record-change.js';
import type { ProjectRole } from '../../../shared/schemas/teams.js';
import { requireProjectRole } from '../realms/project-access.js';
import { emitWebhookEvent } from '../changes/webhook-outbox.js';
import { requireReachableReceiver } from './receiver-policy.js';
import { deleteEndpoint, deleteSettledEventsBefore, findDelivery, findDeliveryWithPayload, findEndpoint, insertDelivery, insertEndpoint, listDeliveries, listEndpoints, updateEndpoint } from './webhooks.repo.js';

export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const MAX_WEBHOOKS_PER_PROJECT = 10;
const DELIVERY_NOT_FOUND = 'Delivery not found';

function toWebhook(row: Selectable<WebhookEndpointsTable>): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: JSON.parse(row.event_types) as string[],
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const audited = ({ url, description, event_types, enabled }: Webhook) => ({ url, description, event_types, enabled });

async function requireEndpoint(deps: Deps, owner: UserRow, projectId: string, id: string, needed: ProjectRole) {
  const project = await requireProjectRole(deps, owner, projectId, needed);
  const endpoint = await findEndpoint(deps.db, project.id, id);
  if (!endpoint) throw new AppError('NOT_FOUND', WEBHOOK_NOT_FOUND);
  return { project, endpoint };
}

export async function listWebhooks(deps: Deps, owner: UserRow, projectId: string): Promise<{ webhooks: Webhook[] }> {
  const project = await requireProjectRole(deps, owner, projectId, 'viewer');
  return { webhooks: (await listEndpoints(deps.db, project.id)).map(toWebhook) };
}

/** Adds a receiver; its Standard Webhooks secret (whsec_…) is answered once and sealed at rest. */
export async function createWebhook(
  deps: Deps,
  owner: UserRow,
  projectId: string,
  input: z.output<typeof CreateWebhookInputSchema>,
  info: RequestInfo,
): Promise<Webhook & { secret: string }> {
  const project = await requireProjectRole(deps, owner, projectId, 'admin');
  await deps.limiters.webhookChangesPerUser.consume(owner.id);
  requireReachableReceiver(deps.config, project.environment, input.url);
  if ((await listEndpoints(deps.db, project.id)).length >= MAX_WEBHOOKS_PER_PROJECT) {
    throw new AppError('CONFLICT', `A project can have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`);
  }
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const now = isoNow(deps.clock);
  const row = {
    id: newId(),
    project_id: project.id,
    url: input.url,
    description: input.description,
    event_types: JSON.stringify(input.event_types),
    secret: deps.secretBox.seal(secret),
    enabled: input.enabled ? (1 as const) : (0 as const),
    created_at: now,
    updated_at: now,
  };
  const webhook = toWebhook(row);
  await withTransaction(deps, async (tx) => {
    await insertEndpoint(tx.db, row);
    await recordChange(tx, { user: owner, info }, { projectId: project.id, action: 'webhook.created', target: { type: 'webhook', id: row.id, label: row.url }, after: audited(webhook) });
  });
  return { ...webhook, secret };
}

export async function updateWebhook(
  deps: Deps,
  owner: UserRow,
  projectId: string,
  id: string,
  input: z.output<typeof UpdateWebhookInputSchema>,
  info: RequestInfo,
): Promise<Webhook> {
  const { project, endpoint } = await requireEndpoint(deps, owner, projectId, id, 'admin');
  await deps.limiters.webhookChangesPerUser.consume(owner.id);
  if (input.url) requireReachableReceiver(deps.config, project.environment, input.url);
  const before = toWebhook(endpoint);
  const now = isoNow(deps.clock);
  const changes = {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.event_types !== undefined && { event_types: JSON.stringify(input.event_types) }),
    ...(input.enabled !== undefined && { enabled: input.enabled ? (1 as const) : (0 as const) }),
    updated_at: now,
  };
  const after = toWebhook({ ...endpoint, ...changes });
  await withTransaction(deps, async (tx) => {
    await updateEndpoint(tx.db, id, changes);
    const diff = changedFields(audited(before), audited(after));
    if (Object.keys(diff.after).length > 0) {
      await recordChange(tx, { user: owner, info }, { projectId: project.id, action: 'webhook.updated', target: { type: 'webhook', id, label: after.url }, ...diff });
    }
  });
  return after;
}

export async function deleteWebhook(deps: Deps, owner: UserRow, projectId: string, id: string, info: RequestInfo): Promise<{ message: string }> {
  const { project, endpoint } = await requireEndpoint(deps, owner, projectId, id, 'admin');
  await deps.limiters.webhookChangesPerUser.consume(owner.id);
  await withTransaction(deps, async (tx) => {
    if (!(await deleteEndpoint(tx.db, project.id, id))) throw new AppError('NOT_FOUND', WEBHOOK_NOT_FOUND);
    await recordChange(tx, { user: owner, info }, { projectId: project.id, action: 'webhook.deleted', target: { type: 'webhook', id, label: endpoint.url }, before: audited(toWebhook(endpoint)) });
  });
  return { message: 'Webhook deleted' };
}

function toDelivery(row: Awaited<ReturnType<typeof findDelivery>> & object): WebhookDelivery {
  const { id, event_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error, created_at } = row;
  return { id, event_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error: shownError(last_error), created_at };
}

/** A stored category; text an older instance may still write during an upgrade is never shown, only counted as connection_failed. */
function shownError(stored: string | null): WebhookDelivery['last_error'] {
  if (stored === null) return null;
  return Object.hasOwn(WEBHOOK_DELIVERY_ERRORS, stored) ? (stored as WebhookDeliveryError) : 'connection_failed';
}

export async function listWebhookDeliveries(deps: Deps, owner: UserRow, projectId: string, id: string, q: PageQuery) {
  const { endpoint } = await requireEndpoint(deps, owner, projectId, id, 'viewer');
  const { rows, total } = await listDeliveries(deps.db, endpoint.id, q);
  return { deliveries: rows.map(toDelivery), total, page: q.page, per_page: q.per_page };
}

/** One delivery with the last attempt's request and answer, as far as they were recorded. */
export async function getWebhookDelivery(deps: Deps, owner: UserRow, projectId: string, id: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
  const { endpoint } = await requireEndpoint(deps, owner, projectId, id, 'viewer');
  const row = await findDeliveryWithPayload(deps.db, endpoint.id, deliveryId);
  if (!row) throw new AppError('NOT_FOUND', DELIVERY_NOT_FOUND);
  return {
    ...toDelivery(row),
    request: { headers: storedHeadersOf(row.request_headers), body: row.payload },
    response:
      row.last_status_code === null
        ? null
        : { status_code: row.last_status_code, headers: storedHeadersOf(row.response_headers), body: row.response_body, body_truncated: row.response_body_truncated === 1 },
  };
}

const storedHeadersOf = (stored: string | null): WebhookHeader[] | null => (stored === null ? null : (JSON.parse(stored) as WebhookHeader[]));

/** Sends the delivery's event to its endpoint again, as a new delivery (attempts start afresh). */
export async function resendWebhookDelivery(deps: Deps, owner: UserRow, projectId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
  const { endpoint } = await requireEndpoint(deps, owner, projectId, id, 'admin');
  await deps.limiters.webhookSendsPerUser.consume(owner.id);
  const original = await findDelivery(deps.db, endpoint.id, deliveryId);
  if (!original) throw new AppError('NOT_FOUND', DELIVERY_NOT_FOUND);
  const now = isoNow(deps.clock);
  const resent = { id: newId(), event_id: original.event_id, endpoint_id: endpoint.id, status: 'pending' as const, next_attempt_at: now, created_at: now };
  await insertDelivery(deps.db, resent);
  return toDelivery((await findDelivery(deps.db, endpoint.id, resent.id))!);
}

/** A `webhook.test` event to this endpoint only, whatever it subscribes to. */
export async function sendTestWebhook(deps: Deps, owner: UserRow, projectId: string, id: string): Promise<{ event_id: string }> {
  const { project, endpoint } = await requireEndpoint(deps, owner, projectId, id, 'admin');
  await deps.limiters.webhookSendsPerUser.consume(owner.id);
  if (endpoint.enabled !== 1) throw new AppError('CONFLICT', 'Turn the webhook on to send it a test event');
  const data = { message: 'A test event from AuthPlatform', webhook_id: endpoint.id };
  // The event and its delivery commit together.
  const eventId = await withTransaction(deps, (tx) => emitWebhookEvent(tx, project.id, 'webhook.test', data, { endpointId: endpoint.id }));
  return { event_id: eventId! };
}

/** Retention: events (with their deliveries) older than `before`, once none is pending. */
export function deleteSettledWebhookEventsBefore(deps: Pick<Deps, 'db'>, before: string): Promise<number> {
  return deleteSettledEventsBefore(deps.db, before);
}
