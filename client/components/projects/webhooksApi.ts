import { useMemo } from 'react';
import type { Webhook, WebhookDelivery, WebhookDeliveryDetail } from '../../../shared/schemas/webhooks';
import { usePlatformApi } from '../../lib/platform-api';

export type WebhookInput = { url: string; description: string | null; event_types: string[]; enabled: boolean };
export type CreatedWebhook = Webhook & { secret: string };
export type DeliveryPage = { deliveries: WebhookDelivery[]; total: number; page: number; per_page: number };

/** React Query keys: the list of a project's webhooks, one webhook's deliveries (by page), and one delivery. */
export const webhookKeys = {
  list: (projectId: string) => ['webhooks', projectId] as const,
  deliveries: (projectId: string, webhookId: string) => ['webhooks', projectId, webhookId, 'deliveries'] as const,
  delivery: (projectId: string, webhookId: string, deliveryId: string) => ['webhooks', projectId, webhookId, 'deliveries', 'detail', deliveryId] as const,
};

/** A project's webhooks over REST (/api/v1/projects/{id}/webhooks): there is no tRPC procedure for them. */
export function useWebhooksApi(projectId: string) {
  const api = usePlatformApi();
  return useMemo(() => {
    // An expired access token: the session's one refresh (the tRPC client's too) renews the cookies.
    const call = api.session;
    const base = `/projects/${encodeURIComponent(projectId)}/webhooks`;
    const one = (webhookId: string) => `${base}/${encodeURIComponent(webhookId)}`;
    return {
      list: () => call<{ webhooks: Webhook[] }>('GET', base),
      create: (input: WebhookInput) => call<CreatedWebhook>('POST', base, input),
      update: (webhookId: string, changes: Partial<WebhookInput>) => call<Webhook>('PATCH', one(webhookId), changes),
      remove: (webhookId: string) => call<{ message: string }>('DELETE', one(webhookId)),
      sendTest: (webhookId: string) => call<{ event_id: string }>('POST', `${one(webhookId)}/test`),
      deliveries: (webhookId: string, page: number, perPage: number) =>
        call<DeliveryPage>('GET', `${one(webhookId)}/deliveries?page=${page}&per_page=${perPage}`),
      delivery: (webhookId: string, deliveryId: string) => call<WebhookDeliveryDetail>('GET', `${one(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}`),
      resend: (webhookId: string, deliveryId: string) => call<WebhookDelivery>('POST', `${one(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`),
    };
  }, [projectId, api]);
}
