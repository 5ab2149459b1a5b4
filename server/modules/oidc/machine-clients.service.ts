import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  MAX_MACHINE_CLIENTS_PER_PROJECT,
  type CreateMachineClientInputSchema,
  type MachineClient,
  type MachineClientWithSecret,
  type UpdateMachineClientInputSchema,
} from '../../../shared/schemas/machine-clients.js';
import type { Deps } from '../../deps.js';
import type { ProjectRow, UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoIn, isoNow } from '../../lib/clock.js';
import { constantTimeEqual, newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { changedFields, recordChange } from '../changes/record-change.js';
import { realmKey } from '../realms/realm.js';
import { requireProjectRole } from '../realms/project-access.js';
import type { ProjectRole } from '../../../shared/schemas/teams.js';
import { OAuthError } from './oauth-error.js';
import {
  countMachineClients,
  deleteMachineClient as deleteRow,
  findMachineClient,
  findMachineClientByClientId,
  insertMachineClient,
  listMachineClients as listRows,
  touchMachineClient,
  updateMachineClient as updateRow,
  type MachineClientRow,
} from './machine-clients.repo.js';
import type { Provider, TokenAnswer } from './oidc.service.js';

export const MACHINE_CLIENT_NOT_FOUND = 'Machine client not found';
/** client_id prefix: how the token endpoint tells a machine client from the project's own client (its key). */
export const MACHINE_CLIENT_ID_PREFIX = 'mc_';

/** A machine token lives the project's access-token lifetime, at most an hour: revoking a client stops its tokens within that. */
export const MACHINE_TOKEN_MAX_TTL_S = 60 * 60;

const newSecret = () => `mcs_${randomToken(32)}`;

function toMachineClient(row: MachineClientRow): MachineClient {
  const { id, name, client_id, secret_hint, created_at, updated_at, secret_rotated_at, last_used_at, revoked_at } = row;
  return { id, name, client_id, secret_hint, scopes: JSON.parse(row.scopes) as string[], created_at, updated_at, secret_rotated_at, last_used_at, revoked_at };
}

const audited = ({ name, client_id, scopes, revoked_at }: MachineClient) => ({ name, client_id, scopes, revoked: revoked_at !== null });

async function requireClient(deps: Deps, user: UserRow, projectId: string, id: string, needed: ProjectRole) {
  const project = await requireProjectRole(deps, user, projectId, needed);
  const client = await findMachineClient(deps.db, project.id, id);
  if (!client) throw new AppError('NOT_FOUND', MACHINE_CLIENT_NOT_FOUND);
  return { project, client };
}

export async function listMachineClients(deps: Deps, user: UserRow, projectId: string): Promise<{ machine_clients: MachineClient[] }> {
  const project = await requireProjectRole(deps, user, projectId, 'viewer');
  return { machine_clients: (await listRows(deps.db, project.id)).map(toMachineClient) };
}

export async function getMachineClient(deps: Deps, user: UserRow, projectId: string, id: string): Promise<MachineClient> {
  return toMachineClient((await requireClient(deps, user, projectId, id, 'viewer')).client);
}

/** A new client of the client-credentials grant: its secret is answered here once and kept only as its SHA-256. */
export async function createMachineClient(
  deps: Deps,
  user: UserRow,
  projectId: string,
  input: z.output<typeof CreateMachineClientInputSchema>,
  info: RequestInfo,
): Promise<MachineClientWithSecret> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  await deps.limiters.machineClientChangesPerUser.consume(user.id);
  if ((await countMachineClients(deps.db, project.id)) >= MAX_MACHINE_CLIENTS_PER_PROJECT) {
    throw new AppError('CONFLICT', `A project can have at most ${MAX_MACHINE_CLIENTS_PER_PROJECT} machine clients`);
  }
  const secret = newSecret();
  const now = isoNow(deps.clock);
  const row: MachineClientRow = {
    id: newId(),
    project_id: project.id,
    name: input.name,
    client_id: `${MACHINE_CLIENT_ID_PREFIX}${randomBytes(12).toString('hex')}`,
    secret_hash: sha256(secret),
    secret_hint: secret.slice(-4),
    scopes: JSON.stringify(input.scopes),
    created_at: now,
    updated_at: now,
    secret_rotated_at: null,
    last_used_at: null,
    revoked_at: null,
  };
  const client = toMachineClient(row);
  await withTransaction(deps, async (tx) => {
    await insertMachineClient(tx.db, row);
    await recordChange(tx, { user, info }, { projectId: project.id, action: 'machine_client.created', target: { type: 'machine_client', id: row.id, label: row.name }, after: audited(client) });
  });
  return { ...client, client_secret: secret };
}

/** Renames, changes the scopes (tokens issued from then on), or revokes for good. */
export async function updateMachineClient(
  deps: Deps,
  user: UserRow,
  projectId: string,
  id: string,
  input: z.output<typeof UpdateMachineClientInputSchema>,
  info: RequestInfo,
): Promise<MachineClient> {
  const { project, client } = await requireClient(deps, user, projectId, id, 'admin');
  await deps.limiters.machineClientChangesPerUser.consume(user.id);
  const now = isoNow(deps.clock);
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.scopes !== undefined && { scopes: JSON.stringify(input.scopes) }),
    ...(input.revoked && client.revoked_at === null && { revoked_at: now }),
    updated_at: now,
  };
  const before = toMachineClient(client);
  const after = toMachineClient({ ...client, ...changes });
  await withTransaction(deps, async (tx) => {
    await updateRow(tx.db, id, changes);
    const diff = changedFields(audited(before), audited(after));
    if (Object.keys(diff.after).length > 0) {
      const action = before.revoked_at === null && after.revoked_at !== null ? 'machine_client.revoked' : 'machine_client.updated';
      await recordChange(tx, { user, info }, { projectId: project.id, action, target: { type: 'machine_client', id, label: after.name }, ...diff });
    }
  });
  return after;
}

/** A new secret, answered once; the old one stops working at once. */
export async function rotateMachineClientSecret(deps: Deps, user: UserRow, projectId: string, id: string, info: RequestInfo): Promise<MachineClientWithSecret> {
  const { project, client } = await requireClient(deps, user, projectId, id, 'admin');
  await deps.limiters.machineClientChangesPerUser.consume(user.id);
  if (client.revoked_at !== null) throw new AppError('CONFLICT', 'This machine client is revoked; create a new one');
  const secret = newSecret();
  const now = isoNow(deps.clock);
  const changes = { secret_hash: sha256(secret), secret_hint: secret.slice(-4), secret_rotated_at: now, updated_at: now };
  await withTransaction(deps, async (tx) => {
    await updateRow(tx.db, id, changes);
    await recordChange(tx, { user, info }, { projectId: project.id, action: 'machine_client.secret_rotated', target: { type: 'machine_client', id, label: client.name } });
  });
  return { ...toMachineClient({ ...client, ...changes }), client_secret: secret };
}

export async function deleteMachineClient(deps: Deps, user: UserRow, projectId: string, id: string, info: RequestInfo): Promise<{ message: string }> {
  const { project, client } = await requireClient(deps, user, projectId, id, 'admin');
  await deps.limiters.machineClientChangesPerUser.consume(user.id);
  await withTransaction(deps, async (tx) => {
    if (!(await deleteRow(tx.db, project.id, id))) throw new AppError('NOT_FOUND', MACHINE_CLIENT_NOT_FOUND);
    await recordChange(tx, { user, info }, { projectId: project.id, action: 'machine_client.deleted', target: { type: 'machine_client', id, label: client.name }, before: audited(toMachineClient(client)) });
  });
  return { message: 'Machine client deleted' };
}

const INVALID_CLIENT = 'Invalid client credentials';

/**
 * The token endpoint's check of a machine client: its client_id in this project, the secret's SHA-256
 * compared in constant time, not revoked. Every failure reads the same (invalid_client, 401), and an
 * unknown client_id hashes the secret too, so neither the answer nor its time tells which part was wrong.
 */
export async function authenticateMachineClient(deps: Deps, project: ProjectRow, clientId: string, secret: string | undefined): Promise<MachineClientRow> {
  const presented = sha256(secret ?? '');
  const row = clientId.length <= 100 ? await findMachineClientByClientId(deps.db, clientId) : undefined;
  const matches = constantTimeEqual(presented, row?.secret_hash ?? sha256(randomToken(8)));
  if (!row || row.project_id !== project.id || secret === undefined || !matches || row.revoked_at !== null) {
    throw new OAuthError('invalid_client', INVALID_CLIENT, 401);
  }
  return row;
}

/** A machine client's calls, per client network: spent before its secret is checked, so wrong secrets count too. */
export function chargeClientCredentials(deps: Deps, provider: Provider, network: string): Promise<void> {
  return deps.limiters.clientCredentialsPerIp.consume(realmKey(provider.realm, network));
}

/**
 * grant_type=client_credentials (RFC 6749 §4.4): an access token of the project (its key, issuer and
 * audience) whose subject is the client, carrying the scopes asked for (all it may hold when none
 * are named; invalid_scope past them). No refresh token and no ID token: the client asks again.
 * The token names no session, so it never passes for an end user's (access-tokens.ts).
 */
export async function clientCredentialsGrant(deps: Deps, provider: Provider, client: MachineClientRow, requested: string | undefined): Promise<TokenAnswer> {
  const allowed = JSON.parse(client.scopes) as string[];
  const asked = requested === undefined ? allowed : [...new Set(requested.split(' ').filter(Boolean))];
  const outside = asked.filter((scope) => !allowed.includes(scope));
  if (outside.length > 0) throw new OAuthError('invalid_scope', `This client may not ask for ${outside.join(' ')}`);
  const scope = asked.join(' ');
  const { token, expiresIn } = provider.realm.accessTokens.issue(
    { sub: client.client_id, claims: { client_id: client.client_id, scope, permissions: asked, jti: newId() } },
    Math.min(provider.realm.policy.accessTokenTtlS, MACHINE_TOKEN_MAX_TTL_S),
  );
  await touchMachineClient(deps.db, client.id, isoNow(deps.clock), isoIn(deps.clock, -60));
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, ...(scope ? { scope } : {}) };
}
