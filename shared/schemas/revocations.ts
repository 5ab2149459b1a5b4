import { z } from 'zod';

const revokedTimes = {
  revoked_at: z.string().meta({ description: 'When it ended (ISO 8601)' }),
  expires_at: z.string().meta({ description: 'When every access token it held has expired, so a reader may forget it (ISO 8601)' }),
};

/** One session of a project's end user that ended before its time (the revocation feed, issue 31). */
export const SessionRevocationSchema = z.object({
  session_id: z.string().meta({ description: "The session's id: the `sid` claim of its access tokens" }),
  ...revokedTimes,
});

/** A machine client revoked or deleted: none of its access tokens may be accepted any more. */
export const MachineClientRevocationSchema = z.object({
  client_id: z.string().meta({ description: "The machine client's client_id: the `sub` (and `client_id`) of its access tokens" }),
  ...revokedTimes,
});

export const RevocationSchema = z.union([SessionRevocationSchema, MachineClientRevocationSchema]);
export type Revocation = z.infer<typeof RevocationSchema>;

export const RevocationPageSchema = z.object({
  revocations: z.array(RevocationSchema),
  cursor: z.string().meta({ description: 'Opaque: pass it as `since` (or `Last-Event-ID` to the stream) to read what came after' }),
  has_more: z.boolean().meta({ description: 'Another page follows at once' }),
});
export type RevocationPage = z.infer<typeof RevocationPageSchema>;

export const REVOCATION_PAGE_DEFAULT = 500;
export const REVOCATION_PAGE_MAX = 1000;
const CURSOR = z.string({ error: 'since must be a cursor the feed answered' }).regex(/^\d{1,20}_\d{1,19}$/, { error: 'since must be a cursor the feed answered' });

export const RevocationQuerySchema = z.object({
  since: CURSOR.optional().meta({ description: 'The `cursor` of the last page read; without it, every revocation the feed still keeps' }),
  limit: z
    .preprocess(
      (value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value),
      z.number({ error: `limit must be between 1 and ${REVOCATION_PAGE_MAX}` }).int({ error: `limit must be between 1 and ${REVOCATION_PAGE_MAX}` }).min(1, { error: `limit must be between 1 and ${REVOCATION_PAGE_MAX}` }).max(REVOCATION_PAGE_MAX, { error: `limit must be between 1 and ${REVOCATION_PAGE_MAX}` }),
    )
    .default(REVOCATION_PAGE_DEFAULT),
});

export const RevocationStreamQuerySchema = z.object({
  since: CURSOR.optional().meta({ description: 'Where to resume when there is no Last-Event-ID header' }),
});
