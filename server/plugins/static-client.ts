import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SITE_CONFIG, SITE_CONFIG_META, type SiteConfig } from '../../shared/site-config.js';

const API_PREFIXES = ['/api/', '/trpc/', '/public/api/', '/.well-known/', '/portal/api/'];
/** The server's own paths outside those prefixes: without their route (METRICS_TOKEN unset) they are a 404, not the client. */
const SERVER_PATHS = new Set(['/metrics']);
/** The hosted pages' browser API (/hosted/{project_key}/api/…) and the OpenID Connect endpoints answer JSON, never the client. */
const API_PATTERN = /^\/(hosted\/[^/]+\/api|projects\/[^/]+\/(oauth|\.well-known))\//;

/** index.html with the operator's site settings in a meta tag, which the client reads before its first render. */
export function withSiteConfig(indexHtml: string, site: SiteConfig): string {
  const content = JSON.stringify(site).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const meta = `<meta name="${SITE_CONFIG_META}" content="${content}" />`;
  return indexHtml.includes('</head>') ? indexHtml.replace('</head>', `  ${meta}\n  </head>`) : `${meta}${indexHtml}`;
}

/** Serves the built client; any other GET that wants HTML gets index.html so client routes work on reload. */
export async function registerStaticClient(app: FastifyInstance, clientDir: string, site: SiteConfig = DEFAULT_SITE_CONFIG): Promise<boolean> {
  const indexFile = path.join(clientDir, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const indexHtml = withSiteConfig(fs.readFileSync(indexFile, 'utf8'), site);
  const assetsDir = path.resolve(clientDir);

  app.get('/*', async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (API_PREFIXES.some((prefix) => urlPath.startsWith(prefix)) || API_PATTERN.test(urlPath) || SERVER_PATHS.has(urlPath)) {
      return reply.code(404).send({ detail: `Not Found: GET ${urlPath}` });
    }
    const candidate = path.resolve(assetsDir, `.${urlPath}`);
    if (candidate.startsWith(assetsDir + path.sep) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return reply.sendFile(path.relative(assetsDir, candidate));
    }
    if (path.extname(urlPath)) return reply.code(404).send({ detail: `Not Found: GET ${urlPath}` });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
  return true;
}
