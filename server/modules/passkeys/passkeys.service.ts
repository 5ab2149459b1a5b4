import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { z } from 'zod';
import type { Passkey, PasskeyCredentialSchema, PasskeyRegisterInputSchema, WebAuthnOptions } from '../../../shared/schemas/passkeys.js';
import type { PasskeyRow, UserRow, WebAuthnPurpose } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { lockUntilCommit, withTransaction } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { newPasskeyMail } from '../../mail/templates.js';
import { queueAccountMail } from '../../mail/account-mail.js';
import { admitPending, chargePendingStart, type PendingKind } from '../pending/pending-rows.js';
import type { Realm, RelyingParty } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import { requireNewWayInAllowed } from '../sessions/step-up.js';
import { normalizeEmail } from '../../lib/email.js';
import { countPasskeys, findUserByEmail, findUserById } from '../users/users.repo.js';
import {
  countWaitingLoginCeremonies,
  deletePasskey,
  findPasskeyByCredentialId,
  insertPasskey,
  insertWebAuthnChallenge,
  listPasskeys,
  recordPasskeyUse,
  replaceOwnedWebAuthnChallenge,
  renamePasskey,
  spendWebAuthnChallenge,
} from './passkeys.repo.js';
import { brandFor } from '../../mail/mail-brand.js';

export const PASSKEY_NOT_VERIFIED = 'This passkey could not be verified';
const CEREMONY_TTL_S = 5 * 60;
const NO_RELYING_PARTY = "Passkeys need the project's website URL: set it in the project's settings";
const ALREADY_REGISTERED = 'This passkey is already registered';
const PASSKEY_NOT_FOUND = 'Passkey not found';

type Credential = z.output<typeof PasskeyCredentialSchema>;

export function toPasskey(row: PasskeyRow): Passkey {
  return { id: row.id, name: row.name, created_at: row.created_at, last_used_at: row.last_used_at };
}

function relyingPartyOf(realm: Realm): RelyingParty {
  if (!realm.relyingParty) throw new AppError('BAD_REQUEST', NO_RELYING_PARTY);
  return realm.relyingParty;
}

function transportsOf(row: PasskeyRow): AuthenticatorTransport[] | undefined {
  return row.transports ? (JSON.parse(row.transports) as AuthenticatorTransport[]) : undefined;
}

/** A ceremony of an account or of its waiting sign-in: one waits at a time (a new one replaces the earlier). */
async function openCeremony(
  deps: Deps,
  challenge: string,
  purpose: Exclude<WebAuthnPurpose, 'login'>,
  owner: { userId: string; projectId: string | null; mfaChallengeId?: string },
): Promise<void> {
  const now = deps.clock.now();
  await withTransaction(deps, async (tx) => {
    await lockUntilCommit(tx.db, deps.dialect, `ceremony:${purpose}:${owner.userId}`);
    await replaceOwnedWebAuthnChallenge(tx.db, {
      id: newId(),
      challenge,
      purpose,
      user_id: owner.userId,
      project_id: owner.projectId,
      mfa_challenge_id: owner.mfaChallengeId ?? null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CEREMONY_TTL_S * 1000).toISOString(),
    });
  });
}

/**
 * Options for navigator.credentials.create(): a discoverable credential for this account, not one it
 * already has. A passkey is a way in: a verified address and a recent proof first (asked here, before
 * the browser's dialog, and again when the answer comes back).
 */
export async function passkeyRegistrationOptions(deps: Deps, realm: Realm, auth: Authenticated): Promise<WebAuthnOptions> {
  const rp = relyingPartyOf(realm);
  await requireNewWayInAllowed(deps, auth);
  const { user } = auth;
  const existing = await listPasskeys(deps.db, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: transportsOf(passkey) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: CEREMONY_TTL_S * 1000,
  });
  await openCeremony(deps, options.challenge, 'register', { userId: user.id, projectId: realm.projectId });
  return { ...options };
}

/** Checks the authenticator's answer to the registration options and keeps the new passkey. */
export async function registerPasskey(deps: Deps, realm: Realm, auth: Authenticated, input: z.output<typeof PasskeyRegisterInputSchema>): Promise<Passkey> {
  const rp = relyingPartyOf(realm);
  await requireNewWayInAllowed(deps, auth);
  const { user } = auth;
  const now = isoNow(deps.clock);
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: (challenge) => spendWebAuthnChallenge(deps.db, challenge, 'register', { userId: user.id }, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    deps.logger.info({ err: error }, 'passkey registration refused');
    throw new AppError('BAD_REQUEST', PASSKEY_NOT_VERIFIED);
  }
  if (!verification.verified) throw new AppError('BAD_REQUEST', PASSKEY_NOT_VERIFIED);
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const row: PasskeyRow = {
    id: newId(),
    user_id: user.id,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports?.length ? JSON.stringify(credential.transports) : null,
    device_type: credentialDeviceType,
    backed_up: credentialBackedUp ? 1 : 0,
    name: input.name ?? `Passkey ${(await countPasskeys(deps.db, user.id)) + 1}`,
    created_at: now,
    last_used_at: null,
  };
  const mail = newPasskeyMail(user.email, row.name, brandFor(user.project_id, await deps.projectRealms.mailBrandOf(user.project_id), user));
  await withTransaction(deps, async (tx) => {
    if (!(await insertPasskey(tx.db, row))) throw new AppError('CONFLICT', ALREADY_REGISTERED);
    await queueAccountMail(tx, user, 'newPasskeyMail', mail);
  });
  return toPasskey(row);
}

export async function listOwnPasskeys(deps: Deps, user: UserRow): Promise<Passkey[]> {
  return (await listPasskeys(deps.db, user.id)).map(toPasskey);
}

export async function renameOwnPasskey(deps: Deps, user: UserRow, id: string, name: string): Promise<Passkey> {
  const renamed = await renamePasskey(deps.db, user.id, id, name);
  if (!renamed) throw new AppError('NOT_FOUND', PASSKEY_NOT_FOUND);
  return toPasskey(renamed);
}

export async function deleteOwnPasskey(deps: Deps, user: UserRow, id: string): Promise<void> {
  if (!(await deletePasskey(deps.db, user.id, id))) throw new AppError('NOT_FOUND', PASSKEY_NOT_FOUND);
}

const LOGIN_CEREMONIES: PendingKind = { name: 'passkey-login', perNetwork: 'passkeyOptionsPerIp', perProject: 'passkeyOptionsPerProject', ttlS: CEREMONY_TTL_S };

/**
 * Options for a passkey sign-in. Without an e-mail the browser offers the passkeys it holds for this
 * site. With one, the account's passkeys are named; an address without any gets a stand-in id
 * derived from it, so the answer does not tell whether the address has an account. Anyone may ask,
 * so the ceremonies are limited and capped per client network and per project (pending-rows.ts).
 */
export async function passkeyLoginOptions(deps: Deps, realm: Realm, email: string | undefined, request: RequestInfo): Promise<WebAuthnOptions> {
  const rp = relyingPartyOf(realm);
  await chargePendingStart(deps, realm, request, LOGIN_CEREMONIES);
  let allowCredentials: { id: string; transports?: AuthenticatorTransport[] }[] | undefined;
  if (email !== undefined) {
    const normalized = normalizeEmail(email);
    const user = await findUserByEmail(deps.db, realm.projectId, normalized);
    const passkeys = user ? await listPasskeys(deps.db, user.id) : [];
    allowCredentials = passkeys.length
      ? passkeys.map((passkey) => ({ id: passkey.credential_id, transports: transportsOf(passkey) }))
      : [{ id: deps.secretBox.digest('passkey-stand-in', `${realm.projectId ?? 'platform'}:${normalized}`).toString('base64url') }];
  }
  const options = await generateAuthenticationOptions({ rpID: rp.id, allowCredentials, userVerification: 'required', timeout: CEREMONY_TTL_S * 1000 });
  const now = deps.clock.now();
  await admitPending(deps, realm, request, LOGIN_CEREMONIES, countWaitingLoginCeremonies, (db) =>
    insertWebAuthnChallenge(db, {
      id: newId(),
      challenge: options.challenge,
      purpose: 'login',
      user_id: null,
      project_id: realm.projectId,
      mfa_challenge_id: null,
      client_network: request.network,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CEREMONY_TTL_S * 1000).toISOString(),
    }),
  );
  return { ...options };
}

/** Options for one of the account's own passkeys: the second factor of a waiting sign-in, or a step-up's proof. */
async function ownPasskeyOptions(deps: Deps, realm: Realm, user: UserRow, ceremony: Exclude<PasskeyCeremony, { purpose: 'login' }>): Promise<WebAuthnOptions> {
  const rp = relyingPartyOf(realm);
  const passkeys = await listPasskeys(deps.db, user.id);
  if (!passkeys.length) throw new AppError('BAD_REQUEST', 'This account has no passkey');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((passkey) => ({ id: passkey.credential_id, transports: transportsOf(passkey) })),
    userVerification: ceremony.purpose === 'step_up' ? 'required' : 'preferred',
    timeout: CEREMONY_TTL_S * 1000,
  });
  const mfaChallengeId = ceremony.purpose === 'mfa' ? ceremony.mfaChallengeId : undefined;
  await openCeremony(deps, options.challenge, ceremony.purpose, { userId: user.id, projectId: realm.projectId, mfaChallengeId });
  return { ...options };
}

/**
 * Options for a passkey as the second factor of a sign-in waiting in `mfaChallengeId`. Whoever holds
 * the mfa_token may ask without a session: the passkey sign-in's budgets apply, and its one ceremony waits.
 */
export async function passkeyMfaOptions(deps: Deps, realm: Realm, user: UserRow, mfaChallengeId: string, request: RequestInfo): Promise<WebAuthnOptions> {
  await chargePendingStart(deps, realm, request, LOGIN_CEREMONIES);
  return ownPasskeyOptions(deps, realm, user, { purpose: 'mfa', userId: user.id, mfaChallengeId });
}

/** Options for proving who the signed-in user is with one of their passkeys (step-up); the user must be verified by the authenticator. */
export function passkeyStepUpOptions(deps: Deps, realm: Realm, user: UserRow): Promise<WebAuthnOptions> {
  return ownPasskeyOptions(deps, realm, user, { purpose: 'step_up', userId: user.id });
}

export type PasskeyCeremony = { purpose: 'login' } | { purpose: 'mfa'; userId: string; mfaChallengeId: string } | { purpose: 'step_up'; userId: string };

/**
 * Checks a passkey's answer to this realm's login options (or to a waiting sign-in's mfa options, or
 * a signed-in user's step-up options): the account it belongs to when the passkey is known here (null
 * otherwise), and whether the answer holds: the challenge is live and spent once, origin and RP match,
 * the signature verifies, and for a sign-in on its own or a step-up the user was verified (PIN or
 * biometrics), so it counts as both factors.
 */
export async function checkPasskey(deps: Deps, realm: Realm, response: Credential, ceremony: PasskeyCeremony): Promise<{ user: UserRow | null; verified: boolean }> {
  const rp = relyingPartyOf(realm);
  const passkey = await findPasskeyByCredentialId(deps.db, response.id);
  const user = passkey ? await findUserById(deps.db, passkey.user_id) : undefined;
  if (!passkey || !user || user.project_id !== realm.projectId) return { user: null, verified: false };
  if (ceremony.purpose !== 'login' && user.id !== ceremony.userId) return { user: null, verified: false };

  const now = isoNow(deps.clock);
  const owner =
    ceremony.purpose === 'login'
      ? { projectId: realm.projectId }
      : { userId: user.id, ...(ceremony.purpose === 'mfa' && { mfaChallengeId: ceremony.mfaChallengeId }) };
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: (challenge) => spendWebAuthnChallenge(deps.db, challenge, ceremony.purpose, owner, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, 'base64url'), counter: Number(passkey.counter), transports: transportsOf(passkey) },
      requireUserVerification: ceremony.purpose !== 'mfa',
    });
  } catch (error) {
    deps.logger.info({ err: error }, 'passkey assertion refused');
    return { user, verified: false };
  }
  if (!verification.verified) return { user, verified: false };
  // Outside the try: a database failure here is a 500, not a refused passkey.
  return { user, verified: await recordPasskeyUse(deps.db, passkey.id, Number(passkey.counter), verification.authenticationInfo.newCounter, now) };
}
