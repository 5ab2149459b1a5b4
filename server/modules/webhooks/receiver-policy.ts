import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { Environment } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { createPublicFetch, isPlainlyLoopback, isPlainlyPrivate } from '../ip-intel/public-fetch.js';

/**
 * Where a project's webhooks may go. Public addresses always; any address with WEBHOOKS_ALLOW_PRIVATE.
 * A development project may also use a receiver on loopback (a local tunnel or test server), but only
 * when this server itself runs on loopback (APP_URL), i.e. the local demo: on a shared install anyone
 * who creates a development project could otherwise aim webhooks at the server's own host (SSRF).
 * Other private ranges stay refused. Checked when saved and again after DNS when sending.
 */
export function loopbackReceiversAllowed(config: Pick<Config, 'appOnLoopback'>, environment: Environment): boolean {
  return config.appOnLoopback && environment === 'development';
}

export const NOT_PUBLIC_DETAIL = 'url must be a public address: this server does not send webhooks to private or local networks';

export function requireReachableReceiver(config: Pick<Config, 'webhooksAllowPrivate' | 'appOnLoopback'>, environment: Environment, value: string): void {
  const url = new URL(value);
  if (config.webhooksAllowPrivate || !isPlainlyPrivate(url)) return;
  if (isPlainlyLoopback(url) && loopbackReceiversAllowed(config, environment)) return;
  const detail =
    config.appOnLoopback && isPlainlyLoopback(url)
      ? 'url must be a public address: loopback receivers are allowed in development projects only'
      : NOT_PUBLIC_DETAIL;
  throw new AppError('UNPROCESSABLE_CONTENT', detail);
}

/** The environment of the project a delivery is for (asked only on a local install, where it decides). */
async function environmentOfDelivery(db: Db, deliveryId: string): Promise<Environment | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .innerJoin('projects', 'projects.id', 'webhook_endpoints.project_id')
    .select('projects.environment')
    .where('webhook_deliveries.id', '=', deliveryId)
    .executeTakeFirst();
  return row?.environment;
}

/** The fetch a delivery is sent with: it refuses, after DNS, every address the policy above refuses. */
export function receiverFetch(deps: { db: Db; config: Pick<Config, 'webhooksAllowPrivate' | 'appOnLoopback'> }): (deliveryId: string) => Promise<typeof fetch> {
  if (deps.config.webhooksAllowPrivate) return async () => fetch;
  const publicOnly = createPublicFetch();
  if (!deps.config.appOnLoopback) return async () => publicOnly;
  const publicOrLoopback = createPublicFetch({ allowLoopback: true });
  return async (deliveryId) => (loopbackReceiversAllowed(deps.config, (await environmentOfDelivery(deps.db, deliveryId)) ?? 'production') ? publicOrLoopback : publicOnly);
}
