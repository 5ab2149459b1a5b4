import type { AuditAction } from '../../../shared/schemas/audit.js';
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { newSequentialId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { auditJson } from './audit-values.js';
import { insertAuditEntry } from './changes.repo.js';
import { emitWebhookEvent, type WebhookEvent } from './webhook-outbox.js';

/** Who made a change, and from where. */
export interface AuditActor {
  /** A developer, an admin or an end user; a project's backend (its API key) has no id. */
  user: { id: string | null; email: string | null };
  info: RequestInfo;
}

/** A change as the audit log keeps it, and the event it sends to the project's webhooks, if any. */
export interface Change {
  /** The project the change belongs to; null outside any project (where no webhook listens). */
  projectId: string | null;
  action: AuditAction;
  target: { type: string; id: string | null; label?: string | null };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Announced to the project's webhooks subscribed to its type, after the audit entry. */
  event?: WebhookEvent | null;
}

/**
 * Records a change in its own unit of work (`tx`: withTransaction's; there is no writer for plain deps),
 * so its records commit with it or not at all: one audit entry, whose `before` and `after` keep at most
 * 2 KB of JSON each (auditJson: the largest values become truncated markers), then its webhook event.
 */
export async function recordChange(tx: Tx<Pick<Deps, 'db' | 'clock'>>, actor: AuditActor, change: Change): Promise<void> {
  await insertAuditEntry(tx.db, {
    id: newSequentialId(),
    project_id: change.projectId,
    actor_id: actor.user.id,
    actor_email: actor.user.email,
    action: change.action,
    target_type: change.target.type,
    target_id: change.target.id,
    target_label: change.target.label ?? null,
    before: auditJson(change.before),
    after: auditJson(change.after),
    ip_address: actor.info.ip,
    user_agent: actor.info.userAgent,
    created_at: isoNow(tx.clock),
  });
  if (change.event && change.projectId !== null) await emitWebhookEvent(tx, change.projectId, change.event.type, change.event.data);
}

/** The fields of `after` that differ from `before`, as two objects (what an update changed). */
export function changedFields<T extends Record<string, unknown>>(before: T, after: T): { before: Partial<T>; after: Partial<T> } {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      was[key] = before[key];
      now[key] = after[key];
    }
  }
  return { before: was, after: now };
}
