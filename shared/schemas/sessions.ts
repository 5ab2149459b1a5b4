import { z } from 'zod';
import { SESSION_IDLE_TIMEOUT_MAX, SESSION_IDLE_TIMEOUT_MIN } from '../constants.js';
import { VALIDATION } from '../messages.js';
import { IdInputSchema } from './projects.js';

/**
 * The door a session's sign-in came through: the dashboard, a project's hosted pages, the public API
 * (a developer's backend with the project's key), or the OpenID Connect provider handing it to an app.
 */
export const SessionClientSchema = z.enum(['dashboard', 'hosted', 'public_api', 'oidc']);
export type SessionClient = z.infer<typeof SessionClientSchema>;

/** One of the signed-in account's own live sessions, as its owner sees it. */
export const OwnSessionSchema = z.object({
  id: z.string(),
  /** A label for people, from the User-Agent: 'Chrome on macOS', 'Safari on iPhone', 'Unknown device'. */
  device: z.string(),
  ip_address: z.string().nullable(),
  /** Where the address is, from the offline IP data; null when unknown. */
  country_code: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  /** Recorded at most about once a minute. */
  last_used_at: z.string(),
  /** The session of the calling access token. */
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof OwnSessionSchema>;

export const OwnSessionListSchema = z.object({ sessions: z.array(OwnSessionSchema) });

export const RevokedSessionsSchema = z.object({ message: z.string(), revoked: z.number().int() });

/** The session a tRPC call signs out (REST takes it from the path). */
export const SessionIdInputSchema = z.object({ id: IdInputSchema });

/** Sign a session out after this many minutes without use; null for never. */
export const SessionIdleTimeoutSchema = z
  .number({ error: VALIDATION.sessionIdleTimeout })
  .int({ error: VALIDATION.sessionIdleTimeout })
  .min(SESSION_IDLE_TIMEOUT_MIN, { error: VALIDATION.sessionIdleTimeout })
  .max(SESSION_IDLE_TIMEOUT_MAX, { error: VALIDATION.sessionIdleTimeout })
  .nullable();
