import { z } from 'zod';
import { EmailSchema } from '../../../shared/schemas/common.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { withTransaction, type Tx } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { createManagedAccount } from '../auth/auth.service.js';
import { provisionMembership, removeMember } from '../organizations/organizations.service.js';
import { listDomains } from '../sso/sso.repo.js';
import { domainOf } from '../sso-routing/sso-routing.js';
import { findUserByEmail, findUserById, changeEmailIfFree, updateUser } from '../users/users.repo.js';
import { auditScim, setAccountActive, type ScimContext } from './scim-context.js';
import { ScimError } from './scim-errors.js';
import { pageOf, readScimFilter } from './scim-filter.js';
import { patched, patchOperationsOf } from './scim-patching.js';
import { listResponse, MAX_RESULTS, toScimUser, type ScimUser } from './scim-resources.js';
import * as repo from './scim.repo.js';

/** Entra ID sends booleans as strings ("True", "False") in PATCH values. */
const ScimBooleanSchema = z.union([z.boolean(), z.string().regex(/^(true|false)$/i).transform((value) => value.toLowerCase() === 'true')]);
const NameSchema = z.string().max(1000).transform((value) => value.trim().slice(0, 100) || null);

/** What this server keeps of a SCIM User; other attributes (the enterprise extension…) are accepted and not stored. */
const ScimUserInputSchema = z.looseObject({
  userName: z.string({ error: 'userName is required' }).trim().min(1, { error: 'userName is required' }).max(320),
  externalId: z.string().max(500).nullish(),
  name: z.looseObject({ givenName: NameSchema.nullish(), familyName: NameSchema.nullish() }).nullish(),
  emails: z.array(z.looseObject({ value: z.string().max(320), type: z.string().max(50).nullish(), primary: ScimBooleanSchema.nullish() })).max(20).nullish(),
  active: ScimBooleanSchema.nullish(),
  password: z.string().max(500).nullish(),
});
type ScimUserInput = z.output<typeof ScimUserInputSchema>;

const USER_CASE_EXACT = new Set(['id', 'externalid', 'groups.value']);

const foldUser = (user: ScimUser) => ({
  ...user,
  userName: user.userName.toLowerCase(),
  displayName: user.displayName?.toLowerCase(),
  name: Object.fromEntries(Object.entries(user.name).map(([key, value]) => [key, value?.toLowerCase()])),
  emails: user.emails.map((email) => ({ ...email, value: email.value.toLowerCase() })),
  groups: user.groups.map((group) => ({ ...group, display: group.display.toLowerCase() })),
});

function invalid(error: z.ZodError): ScimError {
  const issue = error.issues[0];
  const path = issue?.path.join('.');
  return new ScimError(400, path ? `${path}: ${issue!.message}` : (issue?.message ?? 'Invalid user'), 'invalidValue');
}

function readUser(body: unknown): ScimUserInput {
  const parsed = ScimUserInputSchema.safeParse(body);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** The address of the account: the primary e-mail, else the work one, else the first, else userName when it is one. */
function emailOf(input: ScimUserInput): string {
  const emails = input.emails ?? [];
  const chosen = emails.find((email) => email.primary === true) ?? emails.find((email) => email.type?.toLowerCase() === 'work') ?? emails[0];
  const parsed = EmailSchema.safeParse(chosen?.value ?? input.userName);
  if (!parsed.success) throw new ScimError(400, 'The user needs an e-mail address (emails, or a userName that is one)', 'invalidValue');
  return parsed.data;
}

/** An IdP speaks only for the domains it proved: the address must be in one of the connection's verified domains. */
async function requireVerifiedDomain(deps: Pick<Deps, 'db'>, ctx: ScimContext, email: string): Promise<void> {
  const verified = (await listDomains(deps.db, [ctx.connection.id])).filter((domain) => domain.verified_at !== null).map((domain) => domain.domain);
  if (!verified.includes(domainOf(email))) throw new ScimError(400, `${email} is outside the connection's verified domains`, 'invalidValue');
}

const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');

/** Runs a change whose unique indexes (userName in the connection, e-mail in the project) answer a clash as 409. */
async function uniquely<T>(work: () => Promise<T>, detail: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw uniqueness(detail);
    throw error;
  }
}

async function requireScimUser(deps: Pick<Deps, 'db'>, ctx: ScimContext, id: string): Promise<repo.ScimUserView> {
  const row = await repo.findScimUser(deps.db, ctx.connection.id, id);
  if (!row) throw new ScimError(404, `User ${id} not found`);
  return row;
}

async function answerOf(deps: Deps, ctx: ScimContext, userId: string): Promise<ScimUser> {
  const row = await requireScimUser(deps, ctx, userId);
  return toScimUser(deps.config, row, await repo.groupsOfUser(deps.db, ctx.connection.id, userId));
}

export async function listScimUsers(deps: Deps, ctx: ScimContext, query: Record<string, unknown>) {
  const filter = readScimFilter(typeof query.filter === 'string' ? query.filter : undefined, USER_CASE_EXACT, foldUser);
  const page = pageOf(query, MAX_RESULTS);
  const eq = (path: string) => {
    const value = filter?.equalities.get(path);
    return typeof value === 'string' ? value : undefined;
  };
  const rows = await repo.listScimUsers(deps.db, ctx.connection.id, { userName: eq('username'), externalId: eq('externalid'), email: eq('emails.value') });
  const groups = await repo.groupsOfUsers(deps.db, ctx.connection.id, rows.map((row) => row.user_id));
  const matching = rows
    .map((row) => toScimUser(deps.config, row, groups.filter((group) => group.user_id === row.user_id)))
    .filter((user) => !filter || filter.matches(user));
  return listResponse(matching.slice(page.startIndex - 1, page.startIndex - 1 + page.count), matching.length, page.startIndex);
}

export function getScimUser(deps: Deps, ctx: ScimContext, id: string): Promise<ScimUser> {
  return answerOf(deps, ctx, id);
}

/**
 * Provisions a user: a new account of the project, verified (the IdP owns the domain), with the
 * password the IdP sends if any; or the account that already has the address, linked. Either way a
 * member of the connection's organization with its default role. 409 (uniqueness) for a userName the
 * connection has, an account another connection provisions, or an unverified account holding the address.
 */
export async function createScimUser(deps: Deps, ctx: ScimContext, body: unknown): Promise<ScimUser> {
  const input = readUser(body);
  const email = emailOf(input);
  await requireVerifiedDomain(deps, ctx, email);
  const userName = input.userName.toLowerCase();
  if ((await repo.listScimUsers(deps.db, ctx.connection.id, { userName })).length > 0) throw uniqueness('A user with this userName exists');
  const active = input.active ?? true;
  const names = { first_name: input.name?.givenName ?? null, last_name: input.name?.familyName ?? null };
  const link = async (tx: Tx<Deps>, user: UserRow) => {
    const now = isoNow(tx.clock);
    await repo.insertScimUser(tx.db, { user_id: user.id, connection_id: ctx.connection.id, user_name: userName, external_id: input.externalId ?? null, active: 1, created_at: now, updated_at: now });
    await provisionMembership(tx, ctx.realm, ctx.actor, ctx.connection.organization_id, user.id, ctx.connection.default_role, false);
    await auditScim(tx, ctx, 'scim_user.provisioned', user, { after: { user_name: userName, external_id: input.externalId ?? null } });
    if (!active) await setAccountActive(tx, ctx, user, false);
  };
  const existing = await findUserByEmail(deps.db, ctx.realm.projectId, email);
  let userId: string;
  if (existing) {
    if (await repo.findLinkOfUser(deps.db, existing.id)) throw uniqueness('An account with this e-mail address is provisioned already');
    if (existing.is_verified !== 1) throw uniqueness('An unverified account holds this e-mail address; its owner verifies it first');
    await uniquely(
      () =>
        withTransaction(deps, async (tx) => {
          if (names.first_name !== null || names.last_name !== null) await updateUser(tx.db, existing.id, { ...names, updated_at: isoNow(tx.clock) });
          await link(tx, existing);
          if (active && existing.is_active !== 1) await setAccountActive(tx, ctx, existing, true);
        }),
      'A user with this userName exists',
    );
    userId = existing.id;
  } else {
    const account = { email, password: input.password ?? undefined, ...names, email_verified: true };
    // createManagedAccount's unit of work is a transaction (Tx): the link commits with the account or not at all.
    const user = await uniquely(
      () => createManagedAccount(deps, ctx.realm, account, (tx, created) => link(tx as Tx<Deps>, created)),
      'A user with this userName or e-mail address exists',
    ).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'CONFLICT') throw uniqueness(error.detail);
      throw error;
    });
    userId = user.id;
  }
  return answerOf(deps, ctx, userId);
}

/** Applies a whole new state of the user (PUT, or PATCH once its operations are applied). */
async function applyUser(deps: Deps, ctx: ScimContext, current: repo.ScimUserView, input: ScimUserInput): Promise<ScimUser> {
  const email = emailOf(input);
  if (email !== current.email) await requireVerifiedDomain(deps, ctx, email);
  const userName = input.userName.toLowerCase();
  const active = input.active ?? current.active === 1;
  await uniquely(
    () =>
      withTransaction(deps, async (tx) => {
        const user = (await findUserById(tx.db, current.user_id))!;
        const now = isoNow(tx.clock);
        const names = { first_name: input.name?.givenName ?? null, last_name: input.name?.familyName ?? null };
        if (email !== current.email) {
          if (!(await changeEmailIfFree(tx.db, user.id, email, { ...names, updated_at: now }))) throw uniqueness('Another account of the project has this e-mail address');
        } else if (names.first_name !== user.first_name || names.last_name !== user.last_name) {
          await updateUser(tx.db, user.id, { ...names, updated_at: now });
        }
        const externalId = input.externalId === undefined ? current.external_id : input.externalId;
        if (userName !== current.user_name || externalId !== current.external_id || email !== current.email) {
          await repo.updateScimUser(tx.db, user.id, { user_name: userName, external_id: externalId, updated_at: now });
          await auditScim(tx, ctx, 'scim_user.updated', user, { before: { user_name: current.user_name, external_id: current.external_id, email: current.email }, after: { user_name: userName, external_id: externalId, email } });
        }
        if (active !== (current.active === 1) || active !== (user.is_active === 1)) await setAccountActive(tx, ctx, (await findUserById(tx.db, user.id))!, active);
      }),
    'A user with this userName exists',
  );
  return answerOf(deps, ctx, current.user_id);
}

export async function replaceScimUser(deps: Deps, ctx: ScimContext, id: string, body: unknown): Promise<ScimUser> {
  const current = await requireScimUser(deps, ctx, id);
  return applyUser(deps, ctx, current, readUser(body));
}

export async function patchScimUser(deps: Deps, ctx: ScimContext, id: string, body: unknown): Promise<ScimUser> {
  const operations = patchOperationsOf(body);
  const current = await requireScimUser(deps, ctx, id);
  const resource = toScimUser(deps.config, current, []);
  const { groups: _groups, meta: _meta, ...editable } = patched({ ...resource }, operations);
  return applyUser(deps, ctx, current, readUser(editable));
}

/**
 * Deprovisions: the account leaves the connection's organization and its groups, is deactivated (its
 * sessions end, sign-in is refused) and is no longer the connection's (the link is gone: GET answers
 * 404). The account itself is kept, deactivated, for the developer to delete or reactivate; a later
 * POST with its address links and reactivates it.
 */
export async function deleteScimUser(deps: Deps, ctx: ScimContext, id: string): Promise<void> {
  const current = await requireScimUser(deps, ctx, id);
  await removeMember(deps, ctx.realm.projectId, ctx.actor, ctx.connection.organization_id, current.user_id).catch((error: unknown) => {
    if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
  });
  await withTransaction(deps, async (tx) => {
    const user = (await findUserById(tx.db, current.user_id))!;
    await setAccountActive(tx, ctx, user, false);
    await repo.leaveGroupsOfConnection(tx.db, ctx.connection.id, user.id);
    await repo.deleteScimUser(tx.db, ctx.connection.id, user.id);
    await auditScim(tx, ctx, 'scim_user.deprovisioned', user, { before: { user_name: current.user_name } });
  });
}
