import { randomInt } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { isoIn, isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { admitPending, chargePendingStart, type PendingKind } from '../pending/pending-rows.js';
import { hostedPagesUrlOf } from '../projects/project-urls.js';
import { realmKey } from '../realms/realm.js';
import { liveSessionDetails, startSession } from '../sessions/sessions.service.js';
import { findUser } from '../users/users.service.js';
import { SUPPORTED_SCOPES, singleParam, type Params } from './authorization-request.js';
import {
  countWaitingDeviceAuthorizations,
  decideDeviceAuthorization,
  deleteExpiredDeviceAuthorizations,
  findByDeviceCode,
  findPendingByUserCode,
  insertDeviceAuthorization,
  recordPoll,
  spendDeviceAuthorization,
  type DeviceAuthorizationRow,
} from './device.repo.js';
import { OAuthError } from './oauth-error.js';
import { DEFAULT_SCOPE, idTokenFor, type Provider, type TokenAnswer } from './oidc.service.js';

/** RFC 8628 §3.2: how long the codes live and how often the device may ask (seconds). */
export const DEVICE_CODE_TTL_S = 10 * 60;
export const DEVICE_POLL_INTERVAL_S = 5;
/** A poll this much early still counts as on time: the device's timer and the network jitter. */
const POLL_GRACE_MS = 1000;
/** Expired requests stay this long after their 10 minutes, so a late poll hears expired_token rather than invalid_grant. */
const EXPIRED_KEPT_S = 10 * 60;

/** RFC 8628 §6.1: consonants only (no vowels, so no words; no 0/O or 1/I to confuse), 20^8 codes. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

const DEVICE_REQUESTS: PendingKind = { name: 'device-authorization', perNetwork: 'deviceAuthorizationPerIp', perProject: 'deviceAuthorizationPerProject', ttlS: DEVICE_CODE_TTL_S };

function newUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
}

/** XXXX-XXXX, as shown and typed. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** What the user typed, as stored: case, spaces and dashes ignored (RFC 8628 §6.1); null when it cannot be a code. */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === USER_CODE_LENGTH && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

export interface DeviceAuthorizationAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** The scopes a device asks for: the supported ones named (others dropped, as at the authorization endpoint), else the default. */
function grantedScope(params: Params): string {
  const asked = (singleParam(params, 'scope') ?? '').split(' ').filter(Boolean);
  if (asked.length === 0) return DEFAULT_SCOPE;
  const scope = SUPPORTED_SCOPES.filter((name) => asked.includes(name)).join(' ');
  if (!scope) throw new OAuthError('invalid_scope', `scope must name at least one of ${SUPPORTED_SCOPES.join(', ')}`);
  return scope;
}

/**
 * The device authorization endpoint (RFC 8628 §3.1-3.2): a device code the device polls with and a
 * user code the user types on the hosted device page, both stored as SHA-256. Made without a
 * session, so limited and capped per client network and per project like authorization requests.
 */
export async function startDeviceAuthorization(deps: Deps, provider: Provider, params: Params, client: RequestInfo): Promise<DeviceAuthorizationAnswer> {
  const { project } = provider;
  const scope = grantedScope(params);
  await chargePendingStart(deps, provider.realm, client, DEVICE_REQUESTS);
  const deviceCode = randomToken(32);
  let userCode = newUserCode();
  const now = isoNow(deps.clock);
  const row = () => ({
    id: newId(),
    project_id: project.id,
    device_code_hash: sha256(deviceCode),
    user_code_hash: sha256(userCode),
    scope,
    client_network: client.network,
    interval_s: DEVICE_POLL_INTERVAL_S,
    last_polled_at: null,
    user_id: null,
    hosted_session_id: null,
    decided_at: null,
    used_at: null,
    created_at: now,
    expires_at: isoIn(deps.clock, DEVICE_CODE_TTL_S),
  });
  try {
    await admitPending(deps, provider.realm, client, DEVICE_REQUESTS, countWaitingDeviceAuthorizations, (db) => insertDeviceAuthorization(db, row()));
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A user code already waiting (about one in 10^8 per waiting request): draw once more.
    userCode = newUserCode();
    await admitPending(deps, provider.realm, client, DEVICE_REQUESTS, countWaitingDeviceAuthorizations, (db) => insertDeviceAuthorization(db, row()));
  }
  const page = `${hostedPagesUrlOf(deps.config, project.project_key)}/device`;
  const shown = formatUserCode(userCode);
  return {
    device_code: deviceCode,
    user_code: shown,
    verification_uri: page,
    verification_uri_complete: `${page}?${new URLSearchParams({ user_code: shown })}`,
    expires_in: DEVICE_CODE_TTL_S,
    interval: DEVICE_POLL_INTERVAL_S,
  };
}

/**
 * grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4-3.5): authorization_pending
 * until the user decides, slow_down (and 5 s more between polls from then on) for a poll within the
 * interval, access_denied, expired_token; once approved, the code flow's answer, once: the device
 * code is spent by the poll that takes the tokens. The session is an ordinary one of the project, on
 * the device's address and agent, with the proof of the hosted sign-in that approved it.
 */
export async function pollDeviceAuthorization(deps: Deps, provider: Provider, deviceCode: string | undefined, device: RequestInfo): Promise<TokenAnswer> {
  const { realm, project } = provider;
  if (!deviceCode || deviceCode.length > 200) throw new OAuthError('invalid_request', 'device_code is required');
  const row = await findByDeviceCode(deps.db, sha256(deviceCode));
  if (!row || row.project_id !== project.id) throw new OAuthError('invalid_grant', 'The device code is invalid');
  if (row.used_at !== null) throw new OAuthError('invalid_grant', 'The device code was already used');
  const nowMs = deps.clock.now().getTime();
  const now = new Date(nowMs).toISOString();
  if (row.expires_at <= now) throw new OAuthError('expired_token', 'The device code has expired; start again');
  const earliestPrevious = new Date(nowMs - row.interval_s * 1000 + POLL_GRACE_MS).toISOString();
  if ((await recordPoll(deps.db, row.id, now, earliestPrevious)) === 'too_fast') {
    throw new OAuthError('slow_down', `Poll at most every ${row.interval_s + 5} seconds`);
  }
  if (row.status === 'denied') throw new OAuthError('access_denied', 'The user denied the request');
  if (row.status === 'pending') throw new OAuthError('authorization_pending', 'The user has not approved the request yet');

  const hosted = row.hosted_session_id ? await liveSessionDetails(deps, realm, row.hosted_session_id) : null;
  if (!hosted || hosted.userId !== row.user_id) throw new OAuthError('access_denied', 'The sign-in that approved the request has ended');
  const user = await findUser(deps, hosted.userId);
  if (!user) throw new OAuthError('access_denied', 'The user who approved the request is gone');
  if (!(await spendDeviceAuthorization(deps.db, row.id, now))) throw new OAuthError('invalid_grant', 'The device code was already used');
  const { sessionId, tokens } = await startSession(
    deps,
    realm,
    user.id,
    null,
    { ip: device.ip, userAgent: device.userAgent, client: 'oidc', clientName: project.name },
    { authMethods: hosted.authMethods, authenticatedAt: hosted.authenticatedAt, oauthScope: row.scope },
  );
  const scopes = row.scope.split(' ');
  return {
    access_token: tokens.access_token,
    token_type: 'Bearer',
    expires_in: tokens.expires_in,
    scope: row.scope,
    ...(scopes.includes('openid') ? { id_token: await idTokenFor(deps, realm, user, { id: sessionId, authMethods: hosted.authMethods, authenticatedAt: hosted.authenticatedAt }, scopes) } : {}),
    ...(scopes.includes('offline_access') ? { refresh_token: tokens.refresh_token } : {}),
  };
}

export const WRONG_USER_CODE = 'This code is not valid. Check it on your device and try again.';

/**
 * The request a typed user code names, while it waits. Every entry spends the network's budget first;
 * a wrong one spends the project's budget of wrong codes too, so guessing is bounded from many addresses.
 */
async function pendingRequestOf(deps: Deps, provider: Provider, typed: string, info: RequestInfo): Promise<DeviceAuthorizationRow> {
  const { realm, project } = provider;
  await deps.limiters.deviceCodeEntriesPerIp.consume(realmKey(realm, info.network));
  const code = normalizeUserCode(typed);
  const row = code ? await findPendingByUserCode(deps.db, project.id, sha256(code), isoNow(deps.clock)) : undefined;
  if (!row) {
    await deps.limiters.wrongDeviceCodesPerProject.consume(project.id);
    throw new AppError('NOT_FOUND', WRONG_USER_CODE);
  }
  return row;
}

export interface DeviceRequestView {
  user_code: string;
  app_name: string;
  scopes: string[];
  expires_at: string;
}

/** The hosted device page: what the code asks for, for the user to approve or deny. */
export async function lookUpDeviceRequest(deps: Deps, provider: Provider, typed: string, info: RequestInfo): Promise<DeviceRequestView> {
  const row = await pendingRequestOf(deps, provider, typed, info);
  return { user_code: formatUserCode(normalizeUserCode(typed)!), app_name: provider.project.name, scopes: row.scope.split(' '), expires_at: row.expires_at };
}

/** The signed-in user's answer to a device's request; the device's next poll hears it. */
export async function decideDeviceRequest(
  deps: Deps,
  provider: Provider,
  typed: string,
  signedIn: { userId: string; sessionId: string },
  approve: boolean,
  info: RequestInfo,
): Promise<{ message: string }> {
  const row = await pendingRequestOf(deps, provider, typed, info);
  const decided = await decideDeviceAuthorization(deps.db, row.id, {
    status: approve ? 'approved' : 'denied',
    user_id: signedIn.userId,
    hosted_session_id: signedIn.sessionId,
    decided_at: isoNow(deps.clock),
  });
  if (!decided) throw new AppError('NOT_FOUND', WRONG_USER_CODE);
  return { message: approve ? 'Device approved' : 'Device denied' };
}

/** The sweep's part: requests past their life (and the grace in which a late poll still hears expired_token). */
export function sweepExpiredDeviceAuthorizations(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredDeviceAuthorizations(deps.db, isoIn(deps.clock, -EXPIRED_KEPT_S));
}
