/**
 * An Express 5 API protected with @authplatform/node, which also serves the built examples/react-spa so that the
 * app and its API share one origin (no CORS). GET /api/me answers who called, verified offline; with AUTH_API_KEY
 * the revocation feed makes a signed-out or revoked session's token refused within seconds.
 *
 *   AUTH_URL      where the platform runs (its APP_URL), default http://localhost:3000
 *   PROJECT_KEY   the project's key (pk_…): the SPA's client id and the tokens' audience
 *   AUTH_API_KEY  optional: a secret API key of the project, for the revocation feed
 *   PORT          default 4100; register http://localhost:PORT/callback as a redirect URI, http://localhost:PORT/
 *                 as a post-logout redirect URI and http://localhost:PORT as an allowed origin
 *   SPA_DIR       the built SPA, default examples/react-spa/dist
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request } from 'express';
import { createAuthPlatform, type Auth } from '@authplatform/node';

const authUrl = (process.env.AUTH_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const projectKey = process.env.PROJECT_KEY ?? '';
const port = Number(process.env.PORT ?? 4100);
const spaDir = path.resolve(process.env.SPA_DIR ?? fileURLToPath(new URL('../react-spa/dist', import.meta.url)));
if (!/^pk_/.test(projectKey)) {
  console.error('Set PROJECT_KEY to your project key (pk_…).');
  process.exit(1);
}

const auth = createAuthPlatform({ url: authUrl, projectKey, apiKey: process.env.AUTH_API_KEY || undefined });
await auth.start();

const app = express();
// What the SPA needs to sign in: public values, read at start so that one build serves any project.
app.get('/api/config', (_req, res) => res.json({ issuer: `${authUrl}/projects/${projectKey}`, clientId: projectKey }));
app.get('/api/me', auth.requireAuth(), (req, res) => {
  const { userId, sessionId, claims } = (req as Request & { auth: Auth }).auth;
  res.json({ userId, sessionId, tokenIssuedAt: claims.iat });
});
app.use(express.static(spaDir));
// The SPA's own routes (/callback) get its page.
app.get('/{*path}', (_req, res) => res.sendFile(path.join(spaDir, 'index.html')));

const server = app.listen(port, () => console.log(`Example API and SPA on http://localhost:${port} (AuthPlatform at ${authUrl})`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void auth.close();
  });
}
