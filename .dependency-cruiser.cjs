/**
 * The allowed direction of imports between the server's folders (issue 27, step 4); checked by
 * tests/unit/module-boundaries.test.ts, which runs dependency-cruiser's cruise() over server/.
 *
 * The "modules" are the folders: server/modules/<area>, and server/{db,lib,mail,plugins,rest,trpc,
 * openapi,cli}. server/ itself (app.ts, routes.ts, main.ts, deps.ts, config.ts, errors.ts…) is the
 * composition root and the shared kernel: it may import anything, and anything may import deps.ts,
 * config.ts and errors.ts, so it stays out of the folder rules.
 *
 * Imports are read as they run: a type-only import (`import type`) disappears when TypeScript compiles,
 * so it binds no folder to another here (tsPreCompilationDeps: false). Deps, Realm and the row types are
 * imported that way everywhere.
 *
 * Known exceptions: none.
 */
const ROOT = '^server/?$';

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment:
        'A folder imports another only if that one does not, directly or through others, import it back. ' +
        'A helper two areas share lives in the lower one (realms/, users/, mail/, changes/, lib/), or is passed in (deps.sessionCheck).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/', pathNot: ROOT },
      to: { circular: true, pathNot: ROOT },
    },
    {
      name: 'no-file-cycles',
      comment: 'No file imports itself back through others.',
      severity: 'error',
      from: { path: '^server/' },
      to: { circular: true },
    },
    {
      name: 'lib-imports-no-module',
      comment: 'lib/ is the bottom: clock, crypto, hashing, limits, logging… It imports nothing else of the server.',
      severity: 'error',
      from: { path: '^server/lib/' },
      to: { path: '^server/', pathNot: '^server/(lib/|deps\\.ts$|config\\.ts$|errors\\.ts$)' },
    },
    {
      name: 'db-imports-no-area',
      comment: 'db/ (dialects, transactions, prepared statements, outbox leases) knows no area, transport or mail.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^server/(modules|rest|trpc|openapi|plugins|mail|cli)/' },
    },
    {
      name: 'areas-not-above-transports',
      comment:
        'Transports → services → repos → db: a module area imports the REST framework (route.ts, account-mount.ts…) ' +
        'only from its *.rest.ts / *.http.ts, and never the tRPC router, the OpenAPI document builder or the composition root.',
      severity: 'error',
      from: { path: '^server/(modules|mail|db|lib)/', pathNot: '\\.(rest|http)\\.ts$' },
      to: { path: '^server/(rest/|trpc/|openapi/document\\.ts$|routes\\.ts$|app\\.ts$|main\\.ts$)' },
    },
    {
      name: 'no-transport-from-below',
      comment: 'Nothing but the composition root, the tRPC router and other transports imports a *.rest.ts.',
      severity: 'error',
      from: { path: '^server/', pathNot: ['\\.rest\\.ts$', '^server/routes\\.ts$', '^server/trpc/router\\.ts$'] },
      to: { path: '\\.rest\\.ts$' },
    },
    {
      name: 'repos-below-services',
      comment: 'A repo (the only SQL) imports db/, lib/ and other repos, never a service or a transport.',
      severity: 'error',
      from: { path: '\\.repo\\.ts$' },
      to: { path: '(\\.service|\\.rest|\\.http)\\.ts$|^server/(rest|trpc|openapi|mail)/' },
    },
    {
      name: 'rest-framework-imports-no-routes',
      comment:
        'rest/ (route declarations, callers, mounts) is what every *.rest.ts imports, so it imports no area ' +
        'that declares routes: only realms/ (realms and access rules); the session check arrives through Deps.',
      severity: 'error',
      from: { path: '^server/rest/' },
      to: { path: '^server/modules/', pathNot: '^server/modules/realms/' },
    },
    {
      name: 'plugins-import-no-area',
      comment:
        'plugins/ holds Fastify plugins only (cookies, request info, guards, headers, static, metrics); they may read ' +
        "ip-intel's address parsing (a leaf), nothing else of the areas.",
      severity: 'error',
      from: { path: '^server/plugins/' },
      to: { path: '^server/(modules|rest|trpc|openapi|mail|cli)/', pathNot: '^server/modules/ip-intel/' },
    },
  ],
  options: {
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^(client|tests|sdk|shared|migrations|bench|examples|scripts)/' },
  },
};
