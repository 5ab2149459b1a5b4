import type { z } from 'zod';
import type {
  Analytics,
  AnalyticsQuery,
  ApiKey,
  CreateApiKeyInputSchema,
  CreateProjectInputSchema,
  DashboardStats,
  Project,
  UpdateProjectInputSchema,
} from '../../../shared/schemas/projects.js';
import type { Deps } from '../../deps.js';
import type { Config } from '../../config.js';
import type { ApiKeyRow, ProjectRow, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import { generateSigningKeyPem } from '../../lib/signing-keys.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { withTransaction } from '../../db/transaction.js';
import { projectAnalytics } from '../analytics/analytics-report.service.js';
import { lastDays, utcDay } from '../analytics/analytics.service.js';
import { changedFields, recordChange } from '../changes/record-change.js';
import { hostedPagesUrlOf, issuerOf } from './project-urls.js';
import { requirePatternsOnlyInDevelopment, urlListOf } from './redirect-uris.js';
import { isLoopbackRedirectPattern } from '../../../shared/loopback-redirect.js';
import {
  countProjectsByOwner,
  deleteProjectCascade,
  findAnySealedSigningKey,
  findApiKey,
  insertApiKey,
  insertProject,
  listApiKeys,
  listProjectsOfMember,
  memberTotals,
  revokeApiKey,
  updateProject as updateProjectRow,
} from './projects.repo.js';
import { requireProjectRole } from '../realms/project-access.js';
import type { MemberProject } from '../realms/project-access.repo.js';
import { leaveEveryTeam } from '../teams/teams.repo.js';

const MAX_PROJECTS_PER_OWNER = 50;
const MAX_KEYS_PER_PROJECT = 20;

/** Stored as JSON text; a broken value reads as empty rather than failing every project screen. */
/**
 * Where a project's mail links point, so they always open a page that can finish the flow: its hosted
 * pages when it uses them (it registered a redirect URI: hosted sign-in is configured), else its
 * website (its own pages post the token back through the public API), else the hosted pages.
 */
export function mailLinkBaseOf(config: Pick<Config, 'appUrl'>, project: Pick<ProjectRow, 'website_url' | 'redirect_uris' | 'project_key'>): string {
  if (project.website_url && urlListOf(project.redirect_uris).length === 0) return project.website_url;
  return hostedPagesUrlOf(config, project.project_key);
}

/**
 * Where "Back to the app" goes from the hosted pages: the project's website, else the origin of its
 * last registered redirect URI (where its app runs); null when it has neither.
 */
export function appHomeOf(project: Pick<ProjectRow, 'website_url' | 'redirect_uris'>): string | null {
  if (project.website_url) return project.website_url;
  const last = urlListOf(project.redirect_uris)
    .filter((uri) => !isLoopbackRedirectPattern(uri))
    .at(-1);
  if (!last) return null;
  try {
    return `${new URL(last).origin}/`;
  } catch {
    return null;
  }
}

function toProject(config: Config, row: MemberProject): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    website_url: row.website_url,
    environment: row.environment,
    project_key: row.project_key,
    is_active: row.is_active === 1,
    total_users: Number(row.total_users ?? 0),
    total_logins: Number(row.total_logins ?? 0),
    total_signups: Number(row.total_signups ?? 0),
    issuer: issuerOf(config, row.project_key),
    redirect_uris: urlListOf(row.redirect_uris),
    post_logout_redirect_uris: urlListOf(row.post_logout_redirect_uris),
    allowed_origins: urlListOf(row.allowed_origins),
    logo_url: row.logo_url,
    accent_color: row.accent_color,
    hosted_pages_url: hostedPagesUrlOf(config, row.project_key),
    role: row.role,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toApiKey(row: ApiKeyRow & { requests_today?: number }): ApiKey {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    requests_today: Number(row.requests_today ?? 0),
  };
}

function requireVerified(owner: UserRow): void {
  if (owner.is_verified !== 1) throw new AppError('FORBIDDEN', 'Please verify your email first');
}

/** The projects the developer is on the team of, with their role on each. */
/**
 * Whether `secretBox`'s master key is the one this database's secrets were sealed with (a project's
 * signing key is opened with it); null when the database has no project to tell by. For backups: a
 * database restored without its master key has secrets nobody can open.
 */
export async function masterKeyOpensSealedSecrets(deps: Pick<Deps, 'db' | 'secretBox'>): Promise<boolean | null> {
  const sealed = await findAnySealedSigningKey(deps.db);
  if (sealed === undefined) return null;
  try {
    deps.secretBox.open(sealed);
    return true;
  } catch {
    return false;
  }
}

export async function listProjects(deps: Deps, user: UserRow): Promise<Project[]> {
  return (await listProjectsOfMember(deps.db, user.id)).map((row) => toProject(deps.config, row));
}

export async function getProject(deps: Deps, user: UserRow, id: string): Promise<Project> {
  return toProject(deps.config, await requireProjectRole(deps, user, id, 'viewer'));
}

/** What the audit log keeps of a project's settings (never its keys). */
function auditedSettings(project: Project) {
  const { name, description, website_url, environment, is_active, redirect_uris, post_logout_redirect_uris, allowed_origins, logo_url, accent_color } = project;
  return { name, description, website_url, environment, is_active, redirect_uris, post_logout_redirect_uris, allowed_origins, logo_url, accent_color };
}

export async function createProject(deps: Deps, owner: UserRow, input: z.output<typeof CreateProjectInputSchema>, info: RequestInfo): Promise<Project> {
  requireVerified(owner);
  if ((await countProjectsByOwner(deps.db, owner.id)) >= MAX_PROJECTS_PER_OWNER) {
    throw new AppError('CONFLICT', `A developer account can have at most ${MAX_PROJECTS_PER_OWNER} projects`);
  }
  requirePatternsOnlyInDevelopment(input.environment, [input.redirect_uris, input.post_logout_redirect_uris]);
  const now = isoNow(deps.clock);
  const id = newId();
  const project = await withTransaction(deps, async (tx) => {
    await insertProject(tx.db, {
      id,
      owner_id: owner.id,
      name: input.name,
      description: input.description,
      website_url: input.website_url,
      environment: input.environment,
      project_key: `pk_${randomToken(16)}`,
      is_active: 1,
      signing_key: deps.secretBox.seal(generateSigningKeyPem()),
      redirect_uris: JSON.stringify(input.redirect_uris ?? []),
      post_logout_redirect_uris: JSON.stringify(input.post_logout_redirect_uris ?? []),
      allowed_origins: JSON.stringify(input.allowed_origins ?? []),
      logo_url: input.logo_url ?? null,
      accent_color: input.accent_color ?? null,
      created_at: now,
      updated_at: now,
    });
    const created = await getProject(tx, owner, id);
    await recordChange(tx, { user: owner, info }, { projectId: id, action: 'project.created', target: { type: 'project', id, label: created.name }, after: auditedSettings(created) });
    return created;
  });
  return project;
}

export async function updateProject(deps: Deps, owner: UserRow, id: string, input: z.output<typeof UpdateProjectInputSchema>, info: RequestInfo): Promise<Project> {
  const before = toProject(deps.config, await requireProjectRole(deps, owner, id, 'admin'));
  await deps.limiters.projectUpdatesPerUser.consume(owner.id);
  const { is_active, redirect_uris, post_logout_redirect_uris, allowed_origins, ...fields } = input;
  const lists = { redirect_uris, post_logout_redirect_uris, allowed_origins };
  requirePatternsOnlyInDevelopment(input.environment ?? before.environment, [redirect_uris, post_logout_redirect_uris]);
  const after = await withTransaction(deps, async (tx) => {
    await updateProjectRow(tx.db, id, {
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      ...Object.fromEntries(Object.entries(lists).flatMap(([name, value]) => (value === undefined ? [] : [[name, JSON.stringify(value)]]))),
      ...(is_active === undefined ? {} : { is_active: is_active ? 1 : 0 }),
      updated_at: isoNow(deps.clock),
    });
    const updated = await getProject(tx, owner, id);
    const changes = changedFields(auditedSettings(before), auditedSettings(updated));
    if (Object.keys(changes.after).length > 0) {
      await recordChange(tx, { user: owner, info }, { projectId: id, action: 'project.updated', target: { type: 'project', id, label: updated.name }, ...changes });
    }
    return updated;
  });
  return after;
}

/** Deletes the project with its keys, end users, their sessions and devices, and its analytics. */
export async function deleteProject(deps: Deps, owner: UserRow, id: string, info: RequestInfo): Promise<{ message: string }> {
  const project = toProject(deps.config, await requireProjectRole(deps, owner, id, 'owner'));
  await withTransaction(deps, async (tx) => {
    await deleteProjectCascade(tx.db, id);
    await recordChange(tx, { user: owner, info }, { projectId: id, action: 'project.deleted', target: { type: 'project', id, label: project.name }, before: auditedSettings(project) });
  });
  return { message: 'Project deleted successfully' };
}

/**
 * For account deletion: the projects the developer is the only owner of go, with everything in it;
 * the others pass to a remaining owner (in the caller's unit of work, which drops the keys' cached
 * lookups once it commits).
 */
export async function leaveAllProjects(deps: Pick<Deps, 'db'>, userId: string): Promise<void> {
  for (const id of await leaveEveryTeam(deps.db, userId)) await deleteProjectCascade(deps.db, id);
}

export async function listProjectApiKeys(deps: Deps, user: UserRow, projectId: string): Promise<ApiKey[]> {
  await requireProjectRole(deps, user, projectId, 'viewer');
  return (await listApiKeys(deps.db, projectId, utcDay(deps.clock.now()))).map(toApiKey);
}

/** The secret is answered once and stored only as a SHA-256 hash; its prefix says the environment. */
export async function createApiKey(
  deps: Deps,
  owner: UserRow,
  projectId: string,
  input: z.output<typeof CreateApiKeyInputSchema>,
  info: RequestInfo,
): Promise<ApiKey & { secret: string }> {
  requireVerified(owner);
  const project = await requireProjectRole(deps, owner, projectId, 'admin');
  const existing = await listApiKeys(deps.db, projectId, utcDay(deps.clock.now()));
  if (existing.filter((k) => !k.revoked_at).length >= MAX_KEYS_PER_PROJECT) {
    throw new AppError('CONFLICT', `A project can have at most ${MAX_KEYS_PER_PROJECT} active API keys`);
  }
  const secret = `${project.environment === 'production' ? 'sk_live_' : 'sk_test_'}${randomToken(32)}`;
  const row: ApiKeyRow = {
    id: newId(),
    project_id: projectId,
    name: input.name,
    prefix: secret.slice(0, 12),
    key_hash: sha256(secret),
    created_at: isoNow(deps.clock),
    last_used_at: null,
    revoked_at: null,
  };
  await withTransaction(deps, async (tx) => {
    await insertApiKey(tx.db, row);
    const event = { type: 'api_key.created', data: { api_key: { id: row.id, name: row.name, prefix: row.prefix } } } as const;
    await recordChange(tx, { user: owner, info }, { projectId, action: 'api_key.created', target: { type: 'api_key', id: row.id, label: row.name }, after: { name: row.name, prefix: row.prefix }, event });
  });
  return { ...toApiKey(row), secret };
}

/** A revoked key stops working on the next request, on every instance (revokeApiKey drops the cached lookups once committed). */
export async function revokeProjectApiKey(deps: Deps, owner: UserRow, projectId: string, keyId: string, info: RequestInfo): Promise<ApiKey> {
  await requireProjectRole(deps, owner, projectId, 'admin');
  const key = await findApiKey(deps.db, projectId, keyId);
  if (!key) throw new AppError('NOT_FOUND', 'API key not found');
  await withTransaction(deps, async (tx) => {
    await revokeApiKey(tx.db, projectId, keyId, isoNow(deps.clock));
    if (!key.revoked_at) {
      const event = { type: 'api_key.revoked', data: { api_key: { id: keyId, name: key.name, prefix: key.prefix } } } as const;
      await recordChange(tx, { user: owner, info }, { projectId, action: 'api_key.revoked', target: { type: 'api_key', id: keyId, label: key.name }, before: { name: key.name, prefix: key.prefix }, event });
    }
  });
  return toApiKey((await findApiKey(deps.db, projectId, keyId))!);
}

export async function getDashboardStats(deps: Deps, owner: UserRow): Promise<DashboardStats> {
  const now = deps.clock.now();
  const today = utcDay(now);
  const week = lastDays(now, 7);
  const totals = await memberTotals(deps.db, owner.id, { today, monthStart: `${today.slice(0, 8)}01`, weekStart: week[0]! });
  const requestsByDay = new Map(totals.week.map((row) => [row.day, Number(row.requests)]));
  return {
    total_projects: Number(totals.projects.total),
    active_projects: Number(totals.projects.active ?? 0),
    total_api_keys: Number(totals.keys.total),
    active_api_keys: Number(totals.keys.active ?? 0),
    total_project_users: totals.users,
    total_api_requests_today: Number(totals.requests.today),
    total_api_requests_month: Number(totals.requests.month),
    api_requests_last_7_days: week.map((day) => ({ day, requests: requestsByDay.get(day) ?? 0 })),
  };
}

/** The project's analytics over the period asked (see analytics-report.service); any member of its team reads them. */
export async function getAnalytics(deps: Deps, user: UserRow, projectId: string, query: AnalyticsQuery): Promise<Analytics> {
  await requireProjectRole(deps, user, projectId, 'viewer');
  return projectAnalytics(deps, projectId, query);
}
