import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { PRODUCT_NAME } from '../shared/constants.js';
import type { Config } from './config.js';
import { lookupChangesOf, poolStatsReader, type Db, type Dialect } from './db/connect.js';
import { listenForLookupChanges } from './db/lookup-changes.js';
import type { Deps } from './deps.js';
import { systemClock, type Clock } from './lib/clock.js';
import { PRETTY_TRANSPORT, prettyLogs } from './lib/logging.js';
import { lazyRequestLogger } from './lib/request-logger.js';
import { createInvalidations } from './lib/invalidations.js';
import { createBcryptHasher } from './lib/passwords.js';
import { createMetrics, NO_METRICS } from './lib/metrics.js';
import { createLimiters, type LimitName, type LimitRule } from './lib/rate-limit.js';
import { connectRedis } from './lib/redis.js';
import { memoryExportSlots, redisExportSlots } from './lib/export-slots.js';
import { createSecretBox, loadOrCreateMasterKey } from './lib/secret-box.js';
import { loadOrCreateSigningKey, type SigningKey } from './lib/signing-keys.js';
import { createMailDispatcher } from './mail/dispatcher.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { countPendingMails } from './mail/outbox.repo.js';
import { createCaptchaVerifier, type CaptchaProvider } from './modules/captcha/captcha.js';
import { upgradeUnkeyedRecoveryCodes } from './modules/mfa/recovery-code-upgrade.js';
import { scheduleRetention } from './modules/retention/retention.service.js';
import { memorySpentTokens, redisSpentTokens, SpentTokens } from './modules/captcha/spent-tokens.js';
import { platformPolicy } from './modules/projects/realm-policy.js';
import { captchaCspSources } from './modules/captcha/csp.js';
import { createIpIntel, ipDataFilesIn, type IpIntel } from './modules/ip-intel/ip-intel.js';
import { createAccessTokens } from './modules/sessions/access-tokens.js';
import { createProjectRealms } from './modules/projects/project-realms.js';
import { relyingPartyAt } from './modules/realms/realm.js';
import { countRequests, serveMetrics } from './plugins/metrics.js';
import { registerRequestGuard } from './plugins/request-guard.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerStaticClient } from './plugins/static-client.js';
import { registerErrorHandling } from './rest/error-handler.js';
import { mountRoutes } from './rest/mount.js';
import { authenticateIfSignedIn } from './modules/sessions/request-auth.js';
import { authenticate } from './modules/sessions/sessions.service.js';
import { PORTAL_SESSION_COOKIE, portalSessionOf } from './modules/sso/admin-portal.service.js';
import { REST_ROUTES } from './routes.js';
import { createProviderClient } from './modules/social/provider-client.js';
import { createWebhookDispatcher } from './modules/webhooks/dispatcher.js';
import { createRevocationStreams } from './modules/revocations/revocation-stream.js';
import { registerOidcProvider } from './modules/oidc/oidc.http.js';
import { registerSsoEndpoints } from './modules/sso/sso.http.js';
import { registerScimEndpoints } from './modules/scim/scim.http.js';
import { createContextFactory } from './trpc/init.js';
import { appRouter, type AppRouter } from './trpc/router.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/** Caps every request body before anything parses or hashes it. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: Config;
  db: Db;
  dialect: Dialect;
  clock?: Clock;
  mailer?: Mailer;
  signingKey?: SigningKey;
  limits?: Partial<Record<LimitName, LimitRule>>;
  /** Directory of the built client; defaults to dist/client. */
  clientDir?: string;
  ipIntel?: IpIntel;
}

export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; deps: Deps }> {
  const { config } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      ...(prettyLogs(config) && { transport: PRETTY_TRANSPORT }),
    },
    // A number of hops as Fastify's hop-count function: the `hops` proxies nearest the socket are trusted.
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    childLoggerFactory: lazyRequestLogger,
  });
  // JSON is the only body format any route accepts.
  app.removeContentTypeParser('text/plain');

  const clock = options.clock ?? systemClock;
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : null;
  const shared = redis && { redis, keyPrefix: config.redisKeyPrefix };
  const accessTokens = createAccessTokens({
    key: options.signingKey ?? loadOrCreateSigningKey({ pem: config.jwtPrivateKey, dataDir: config.dataDir }),
    issuer: config.appUrl,
    ttlS: config.accessTokenTtlS,
    clock,
  });
  const passwords = createBcryptHasher(config.bcryptCost);
  // Without a token nothing is counted and no hook runs.
  const metrics = config.metricsToken ? createMetrics({ hashing: () => passwords.load(), pool: poolStatsReader(options.db), mailPending: () => countPendingMails(options.db) }) : null;
  if (metrics) countRequests(app, metrics);
  const spentTokens = shared ? (memory: SpentTokens) => redisSpentTokens(shared.redis, shared.keyPrefix, () => clock.now().getTime(), memory) : undefined;
  const captcha = createCaptchaVerifier({
    provider: config.captcha.provider,
    siteKey: config.captcha.siteKey,
    // Without a configured secret, ALTCHA challenges are signed with a per-process key.
    secret: config.captcha.secret || randomBytes(32).toString('hex'),
    verifyUrl: config.captcha.verifyUrl,
    clock,
    spentTokens,
  });
  // Every project's captcha remembers its spent tokens in one store (shared over Redis when configured).
  const projectTokensMemory = new SpentTokens(() => clock.now().getTime(), 100_000);
  const projectCaptchaTokens = spentTokens ? spentTokens(projectTokensMemory) : memorySpentTokens(projectTokensMemory);
  const base = {
    config,
    db: options.db,
    dialect: options.dialect,
    clock,
    logger: app.log,
    mailer:
      options.mailer ??
      createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), logger: app.log, logLinks: config.logMailLinks }),
    passwords,
    limiters: createLimiters(options.limits, config.rateLimits, shared),
    exportSlots: shared ? redisExportSlots(shared.redis, shared.keyPrefix) : memoryExportSlots(),
    accessTokens,
    platform: { projectId: null, accessTokens, linkBase: config.appUrl, relyingParty: relyingPartyAt(config.appUrl, PRODUCT_NAME), policy: platformPolicy(config, captcha) },
    secretBox: createSecretBox(loadOrCreateMasterKey({ base64: config.masterKey, dataDir: config.dataDir })),
    ipIntel: options.ipIntel ?? createIpIntel({ files: config.ipDataDir ? ipDataFilesIn(config.ipDataDir) : undefined }),
    captcha,
    socialProviders: createProviderClient(),
    invalidations: await createInvalidations(shared, app.log),
    metrics: metrics ?? NO_METRICS,
    version: VERSION,
    startedAt: clock.now(),
  };
  const deps: Deps = {
    ...base,
    projectRealms: createProjectRealms(base, { captchaTokens: projectCaptchaTokens }),
    webhooks: createWebhookDispatcher(base),
    revocationStreams: createRevocationStreams(base),
    mailDispatcher: createMailDispatcher(base),
    // Called only once a request arrives, by when `deps` is built.
    sessionCheck: { authenticate: (realm, token) => authenticate(deps, realm, token), authenticateIfSignedIn: (realm, token) => authenticateIfSignedIn(deps, realm, token) },
    portalSessionCheck: (request, info) => portalSessionOf(deps, request.cookies[PORTAL_SESSION_COOKIE], info),
  };

  // PostgreSQL: the request path's lookups are remembered while their tables' changes are heard
  // (db/lookup-changes.ts); this instance's own changes reach the others before their callers go on.
  const lookupChanges = lookupChangesOf(options.db);
  if (lookupChanges) {
    const listener = listenForLookupChanges(lookupChanges, app.log);
    deps.invalidations.subscribe('lookups', () => (lookupChanges.generation += 1));
    lookupChanges.announce = () => deps.invalidations.publish('lookups');
    app.addHook('onClose', async () => {
      lookupChanges.announce = null;
      await listener.close();
    });
  }

  // The hosted pages may show any project's own captcha, so their policy allows every remote provider's origins.
  const securityOptions = (providers: CaptchaProvider[]) => {
    const sources = (kind: 'script' | 'frame' | 'connect' | 'style') => [...new Set(providers.flatMap((provider) => captchaCspSources(provider)[kind]))];
    return {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...sources('script')],
          styleSrc: ["'self'", "'unsafe-inline'", ...sources('style')],
          // Projects' logos on their hosted pages come from their own sites.
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", ...sources('connect')],
          workerSrc: ["'self'", 'blob:'],
          frameSrc: sources('frame').length ? sources('frame') : ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      referrerPolicy: { policy: 'no-referrer' as const },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.appUrl.startsWith('https://'),
    };
  };
  registerSecurityHeaders(app, securityOptions([config.captcha.provider]), {
    https: config.appUrl.startsWith('https://'),
    hosted: { prefix: '/hosted/', options: securityOptions([config.captcha.provider, 'turnstile', 'hcaptcha', 'recaptcha']) },
  });
  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, { origin: [...config.corsOrigins], credentials: true, methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] });
  }
  await app.register(fastifyCookie);
  registerErrorHandling(app);
  registerRequestGuard(app, config);
  if (metrics) serveMetrics(app, metrics, config.metricsToken!);

  await mountRoutes(app, deps, REST_ROUTES);
  await registerOidcProvider(app, deps);
  await registerSsoEndpoints(app, deps);
  await registerScimEndpoints(app, deps);
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: createContextFactory(deps),
      onError({ error, path: procedure }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, procedure }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });
  await registerStaticClient(app, options.clientDir ?? path.join(ROOT, 'dist', 'client'), config.site);

  // Before the server stops taking connections: an open stream would keep its close waiting.
  app.addHook('preClose', (done) => {
    deps.revocationStreams.close();
    done();
  });
  await upgradeUnkeyedRecoveryCodes(deps);
  const retention = scheduleRetention(deps);
  app.addHook('onClose', () => retention.stop());
  if (config.webhookPollMs > 0) deps.webhooks.start(config.webhookPollMs);
  app.addHook('onClose', () => deps.webhooks.close());
  if (config.mailPollMs > 0) deps.mailDispatcher.start(config.mailPollMs);
  app.addHook('onClose', () => deps.projectRealms.close());
  // In this order: the send in flight finishes (and is recorded) before the transport closes.
  app.addHook('onClose', async () => {
    await deps.mailDispatcher.close();
    await deps.mailer.close();
  });
  app.addHook('onClose', () => deps.invalidations.close());
  if (redis) app.addHook('onClose', () => redis.quit().then(() => undefined, () => redis.disconnect()));
  return { app, deps };
}
