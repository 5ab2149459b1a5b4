import { LRUCache } from 'lru-cache';
import type { Deps } from '../../deps.js';
import type { ProjectRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { sha256 } from '../../lib/crypto.js';
import { signingKeyFromPem } from '../../lib/signing-keys.js';
import { relyingPartyAt, type ProjectRealms, type Realm, type RealmPolicy } from '../realms/realm.js';
import { createAccessTokens, type AccessTokens } from '../sessions/access-tokens.js';
import { createCaptchaVerifier, type CaptchaVerifier } from '../captcha/captcha.js';
import type { SpentTokenStore } from '../captcha/spent-tokens.js';
import { findProjectSettings } from './project-settings.repo.js';
import { projectPolicy } from './realm-policy.js';
import { createApiUsage } from './api-usage.js';
import { hostedPagesUrlOf, issuerOf } from './project-urls.js';
import { mailLinkBaseOf } from './projects.service.js';
import { findLiveApiKeyWithProject, findProjectById, findProjectByKey, findProjectWithOwnerStateByKey } from './projects.repo.js';

export const INVALID_API_KEY = 'Invalid API key';

/**
 * How long a key's lookup (its project and owner) is kept in memory. Every change that can refuse
 * a key (revoked, project changed, deactivated or deleted, owner deactivated or deleted) drops the
 * copies at once on every instance (the repo write publishes 'api-keys' once committed); this bounds an entry's life when that message
 * cannot reach an instance (Redis away).
 */
export const API_KEY_CACHE_TTL_MS = 5_000;

/**
 * How long a project's settings are kept in memory. A change drops the copies at once on every
 * instance (the repo write publishes 'project-settings' once committed); this bounds an entry's life when that message cannot reach one.
 */
export const SETTINGS_CACHE_TTL_MS = 5_000;

/** A project's policies: on the public API (no captcha unless its own) and on its hosted pages (the platform's unless its own). */
interface CachedSettings {
  api: RealmPolicy;
  hosted: RealmPolicy;
}

interface CachedKey {
  project: ProjectRow;
  apiKeyId: string;
  ownerIsActive: boolean;
  /** The project's realm on the public API, as made from `settings` (made again when they are replaced). */
  realm?: { settings: CachedSettings; realm: Realm };
}

/**
 * Each project signs its end users' tokens with its own key (issuer APP_URL/projects/<project_key>,
 * audience <project_key>), so they are refused by other projects and by the platform. Unsealing
 * the key is done once per project and kept.
 */
export function createProjectRealms(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'secretBox' | 'logger' | 'invalidations' | 'platform' | 'captcha'>,
  options: { captchaTokens: SpentTokenStore },
): ProjectRealms {
  const usage = createApiUsage(deps, deps.config.apiUsageFlushMs);
  const signers = new LRUCache<string, AccessTokens>({ max: 1000 });
  // Unknown keys are not kept, so guessing cannot fill the cache.
  const keys = new LRUCache<string, CachedKey>({ max: 10_000, ttl: API_KEY_CACHE_TTL_MS });
  // A lookup that started before a change must not put what it read back after the change dropped it.
  let generation = 0;
  deps.invalidations.subscribe('api-keys', () => {
    generation += 1;
    keys.clear();
  });

  const settings = new LRUCache<string, CachedSettings>({ max: 10_000, ttl: SETTINGS_CACHE_TTL_MS });
  let settingsGeneration = 0;
  deps.invalidations.subscribe('project-settings', () => {
    settingsGeneration += 1;
    settings.clear();
  });
  const noCaptcha = createCaptchaVerifier();

  const captchaOf = (row: Awaited<ReturnType<typeof findProjectSettings>>): CaptchaVerifier | null => {
    // 'none' is the project's choice of no captcha at all: the platform's does not stand in for it.
    if (row?.captcha_provider === 'none') return noCaptcha;
    if (!row?.captcha_provider || !row.captcha_site_key || !row.captcha_secret) return null;
    return createCaptchaVerifier({
      provider: row.captcha_provider,
      siteKey: row.captcha_site_key,
      secret: deps.secretBox.open(row.captcha_secret),
      // CAPTCHA_VERIFY_URL (a stand-in verifier, or a proxy) applies to the projects' captchas too.
      verifyUrl: deps.config.captcha.verifyUrl,
      clock: deps.clock,
      spentTokens: () => options.captchaTokens,
    });
  };

  // Kept per project with what its mails take from the project itself (name, colour, logo): a change of
  // either drops the copies ('project-settings').
  const settingsOf = async (project: ProjectRow): Promise<CachedSettings> => settings.get(project.id) ?? loadSettings(project);
  const loadSettings = async (project: ProjectRow): Promise<CachedSettings> => {
    const startedAt = settingsGeneration;
    const row = await findProjectSettings(deps.db, project.id);
    const own = captchaOf(row);
    const entry = {
      api: projectPolicy(deps.platform.policy, project, row, { own, fallback: noCaptcha }),
      hosted: projectPolicy(deps.platform.policy, project, row, { own, fallback: deps.captcha }),
    };
    if (settingsGeneration === startedAt) settings.set(project.id, entry);
    return entry;
  };

  const loadKey = async (keyHash: string): Promise<CachedKey | undefined> => {
    const startedAt = generation;
    const found = await findLiveApiKeyWithProject(deps.db, keyHash);
    if (!found) return undefined;
    const { api_key_id: apiKeyId, owner_is_active: ownerIsActive, ...project } = found;
    const entry = { project, apiKeyId, ownerIsActive: ownerIsActive === 1 };
    if (generation === startedAt) keys.set(keyHash, entry);
    return entry;
  };

  const signerFor = (project: ProjectRow): AccessTokens => {
    let signer = signers.get(project.id);
    if (!signer) {
      signer = createAccessTokens({
        key: signingKeyFromPem(deps.secretBox.open(project.signing_key)),
        issuer: issuerOf(deps.config, project.project_key),
        audience: project.project_key,
        ttlS: deps.config.accessTokenTtlS,
        clock: deps.clock,
      });
      signers.set(project.id, signer);
    }
    return signer;
  };

  const realmWith = (project: ProjectRow, policy: RealmPolicy): Realm => ({
    projectId: project.id,
    accessTokens: signerFor(project),
    linkBase: mailLinkBaseOf(deps.config, project),
    relyingParty: project.website_url ? relyingPartyAt(project.website_url, project.name) : null,
    policy,
  });
  const realmOf = async (project: ProjectRow): Promise<Realm> => realmWith(project, (await settingsOf(project)).api);

  const requireAvailable = (project: ProjectRow, ownerIsActive: boolean) => {
    if (project.is_active !== 1) throw new AppError('FORBIDDEN', 'This project is inactive');
    // A deactivated developer's keys stop working with the account, until it is reactivated.
    if (!ownerIsActive) throw new AppError('FORBIDDEN', "This project is unavailable: its owner's account is deactivated");
  };

  return {
    realmOf,

    // Every public API call comes through here: what is remembered is answered without waiting.
    async authenticateApiKey(apiKey) {
      if (!apiKey || apiKey.length > 200) throw new AppError('UNAUTHORIZED', INVALID_API_KEY);
      const keyHash = sha256(apiKey);
      const found = keys.get(keyHash) ?? (await loadKey(keyHash));
      if (!found) throw new AppError('UNAUTHORIZED', INVALID_API_KEY);
      const { project, apiKeyId } = found;
      requireAvailable(project, found.ownerIsActive);
      const written = usage.record(project.id, apiKeyId);
      if (written) await written;
      const projectSettings = settings.get(project.id) ?? (await loadSettings(project));
      if (found.realm?.settings !== projectSettings) found.realm = { settings: projectSettings, realm: realmWith(project, projectSettings.api) };
      return { realm: found.realm.realm, project, apiKeyId };
    },

    async hostedRealm(projectKey) {
      const found = projectKey.length <= 100 ? await findProjectWithOwnerStateByKey(deps.db, projectKey) : undefined;
      if (!found) throw new AppError('NOT_FOUND', 'Project not found');
      const { owner_is_active: ownerIsActive, ...project } = found;
      requireAvailable(project, ownerIsActive === 1);
      const hostedPages = hostedPagesUrlOf(deps.config, project.project_key);
      const realm: Realm = {
        ...(await realmOf(project)),
        linkBase: hostedPages,
        // The hosted pages run at APP_URL, so their passkeys belong to its host.
        relyingParty: relyingPartyAt(deps.config.appUrl, project.name),
        policy: (await settingsOf(project)).hosted,
      };
      return { realm, project };
    },

    async mailBrandOf(projectId) {
      if (projectId === null) return deps.platform.policy.mail;
      const project = await findProjectById(deps.db, projectId);
      return project ? (await settingsOf(project)).api.mail : deps.platform.policy.mail;
    },

    flushUsage: () => usage.flush(),
    close: () => usage.close(),

    async jwks(projectKey) {
      const project = await findProjectByKey(deps.db, projectKey);
      if (!project) throw new AppError('NOT_FOUND', 'Project not found');
      return signerFor(project).jwks();
    },
  };
}
