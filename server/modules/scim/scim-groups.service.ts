import type { ScimPatchOperation } from 'scim-patch';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { ScimGroupRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { syncRoleOf, type ScimContext } from './scim-context.js';
import { ScimError } from './scim-errors.js';
import { pageOf, readScimFilter } from './scim-filter.js';
import { listResponse, MAX_RESULTS, toScimGroup, type ScimGroup } from './scim-resources.js';
import { patched, patchOperationsOf } from './scim-patching.js';
import * as repo from './scim.repo.js';

const MAX_MEMBERS_PER_CALL = 1000;

const ScimGroupInputSchema = z.looseObject({
  displayName: z.string({ error: 'displayName is required' }).trim().min(1, { error: 'displayName is required' }).max(200),
  externalId: z.string().max(500).nullish(),
  members: z
    .array(z.looseObject({ value: z.string({ error: 'members[].value is required' }).min(1).max(100) }))
    .max(MAX_MEMBERS_PER_CALL)
    .nullish(),
});
type ScimGroupInput = z.output<typeof ScimGroupInputSchema>;

const GROUP_CASE_EXACT = new Set(['id', 'externalid', 'members.value']);
const foldGroup = (group: ScimGroup) => ({ ...group, displayName: group.displayName.toLowerCase() });

function readGroup(body: unknown): ScimGroupInput {
  const parsed = ScimGroupInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ScimError(400, issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid group', 'invalidValue');
  }
  return parsed.data;
}

/** `excludedAttributes=members` (Entra ID asks so) leaves the members out. */
const withoutMembers = (query: Record<string, unknown>) => typeof query.excludedAttributes === 'string' && query.excludedAttributes.split(',').some((name) => name.trim().toLowerCase() === 'members');

async function requireGroup(deps: Pick<Deps, 'db'>, ctx: ScimContext, id: string): Promise<ScimGroupRow> {
  const row = await repo.findGroup(deps.db, ctx.connection.id, id);
  if (!row) throw new ScimError(404, `Group ${id} not found`);
  return row;
}

async function answerOf(deps: Deps, ctx: ScimContext, id: string, members = true): Promise<ScimGroup> {
  const row = await requireGroup(deps, ctx, id);
  return toScimGroup(deps.config, row, members ? await repo.listGroupMembers(deps.db, [row.id]) : null);
}

/** Members must be users this connection provisions (400 invalidValue for any other id). */
async function requireMembers(deps: Pick<Deps, 'db'>, ctx: ScimContext, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const linked = await repo.linkedUserIds(deps.db, ctx.connection.id, unique);
  const unknown = unique.find((id) => !linked.has(id));
  if (unknown !== undefined) throw new ScimError(400, `members: ${unknown} is not a user of this connection`, 'invalidValue');
  return unique;
}

/** Sets a group's fields and members; the role of each member who joined or left follows (syncRoleOf). */
async function saveGroup(deps: Deps, ctx: ScimContext, existing: ScimGroupRow | null, input: ScimGroupInput): Promise<string> {
  const wanted = input.members ? await requireMembers(deps, ctx, input.members.map((member) => member.value)) : null;
  try {
    return await withTransaction(deps, async (tx) => {
      const now = isoNow(tx.clock);
      let id: string;
      let before: string[] = [];
      if (existing) {
        id = existing.id;
        const externalId = input.externalId === undefined ? existing.external_id : input.externalId;
        await repo.updateGroup(tx.db, id, { display_name: input.displayName, external_id: externalId, updated_at: now });
        before = (await repo.listGroupMembers(tx.db, [id])).map((member) => member.user_id);
      } else {
        id = newId();
        await repo.insertGroup(tx.db, { id, connection_id: ctx.connection.id, display_name: input.displayName, external_id: input.externalId ?? null, created_at: now, updated_at: now });
      }
      const after = wanted ?? before;
      const added = after.filter((userId) => !before.includes(userId));
      const removed = before.filter((userId) => !after.includes(userId));
      await repo.addGroupMembers(tx.db, id, added);
      await repo.removeGroupMembers(tx.db, id, removed);
      // A renamed group may now map to another role: every member's role is looked at again.
      const renamed = existing !== null && existing.display_name !== input.displayName;
      for (const userId of renamed ? [...new Set([...after, ...removed])] : [...added, ...removed]) await syncRoleOf(tx, ctx, userId);
      return id;
    });
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw new ScimError(409, 'A group with this displayName exists', 'uniqueness');
    throw error;
  }
}

export async function listScimGroups(deps: Deps, ctx: ScimContext, query: Record<string, unknown>) {
  const filter = readScimFilter(typeof query.filter === 'string' ? query.filter : undefined, GROUP_CASE_EXACT, foldGroup);
  const page = pageOf(query, MAX_RESULTS);
  const eq = (path: string) => {
    const value = filter?.equalities.get(path);
    return typeof value === 'string' ? value : undefined;
  };
  // Display names are stored as given: narrowing by one would compare with case, so only externalId narrows.
  const rows = await repo.listGroups(deps.db, ctx.connection.id, { externalId: eq('externalid') });
  const members = await repo.listGroupMembers(deps.db, rows.map((row) => row.id));
  const matching = rows
    .map((row) => toScimGroup(deps.config, row, members.filter((member) => member.group_id === row.id)))
    .filter((group) => !filter || filter.matches(group));
  const shown = withoutMembers(query) ? matching.map(({ members: _members, ...group }) => group) : matching;
  return listResponse(shown.slice(page.startIndex - 1, page.startIndex - 1 + page.count), matching.length, page.startIndex);
}

export function getScimGroup(deps: Deps, ctx: ScimContext, id: string, query: Record<string, unknown>): Promise<ScimGroup> {
  return answerOf(deps, ctx, id, !withoutMembers(query));
}

export async function createScimGroup(deps: Deps, ctx: ScimContext, body: unknown): Promise<ScimGroup> {
  const input = readGroup(body);
  const taken = (await repo.listGroups(deps.db, ctx.connection.id)).some((group) => group.display_name.toLowerCase() === input.displayName.toLowerCase());
  if (taken) throw new ScimError(409, 'A group with this displayName exists', 'uniqueness');
  return answerOf(deps, ctx, await saveGroup(deps, ctx, null, input));
}

export async function replaceScimGroup(deps: Deps, ctx: ScimContext, id: string, body: unknown): Promise<ScimGroup> {
  const existing = await requireGroup(deps, ctx, id);
  const input = readGroup(body);
  await saveGroup(deps, ctx, existing, { ...input, members: input.members ?? [] });
  return answerOf(deps, ctx, id);
}

/** A member in a PATCH value is compared by its `value` alone (Entra ID and Okta send `{value}`, sometimes with `display`). */
function memberValuesOnly(operation: ScimPatchOperation): ScimPatchOperation {
  const strip = (value: unknown): unknown => (Array.isArray(value) ? value.map(strip) : value && typeof value === 'object' && 'value' in value ? { value: (value as { value: unknown }).value } : value);
  if (operation.path?.toLowerCase() === 'members') return { ...operation, value: strip(operation.value) } as ScimPatchOperation;
  if (!operation.path && operation.value && typeof operation.value === 'object' && 'members' in operation.value) {
    return { ...operation, value: { ...operation.value, members: strip((operation.value as { members: unknown }).members) } } as ScimPatchOperation;
  }
  return operation;
}

/** PATCH (add/replace/remove of displayName, externalId and members, `members[value eq "…"]` included), then an answer with the members (RFC 7644 §3.5.2: 200 with the resource). */
export async function patchScimGroup(deps: Deps, ctx: ScimContext, id: string, body: unknown): Promise<ScimGroup> {
  const operations = patchOperationsOf(body).map(memberValuesOnly);
  const existing = await requireGroup(deps, ctx, id);
  const current = toScimGroup(deps.config, existing, await repo.listGroupMembers(deps.db, [existing.id]));
  const resource = { ...current, members: (current.members ?? []).map((member) => ({ value: member.value })) };
  const { meta: _meta, ...result } = patched(resource, operations);
  await saveGroup(deps, ctx, existing, { ...readGroup(result), members: readGroup(result).members ?? [] });
  return answerOf(deps, ctx, id);
}

/** Deletes the group; its former members' roles follow their remaining groups. */
export async function deleteScimGroup(deps: Deps, ctx: ScimContext, id: string): Promise<void> {
  const existing = await requireGroup(deps, ctx, id);
  await withTransaction(deps, async (tx) => {
    const members = (await repo.listGroupMembers(tx.db, [existing.id])).map((member) => member.user_id);
    await repo.deleteGroup(tx.db, ctx.connection.id, existing.id);
    for (const userId of members) await syncRoleOf(tx, ctx, userId);
  });
}
