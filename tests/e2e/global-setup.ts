import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startTestGitHub } from '../helpers/identity-providers';
import { E2E } from './env';
import { startMailCatcher } from './mail-catcher';
import { buildServerBundle, serverCommand } from './server-bundle';
import { PASSWORD, linkIn, waitForMail } from './support';

const root = path.resolve(import.meta.dirname, '../..');

/** Newest modification time under a folder (to decide whether the client build is stale). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function ensureClientBuild() {
  const index = path.join(root, 'dist/client/index.html');
  const sources = Math.max(newestMtime(path.join(root, 'client')), newestMtime(path.join(root, 'shared')));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs > sources) return;
  const result = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('vite build failed');
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string) {
  // A bound, not a wait: it answers as soon as the server does (or fails at once if it exits). Starting (under tsx,
  // before the bundle) on a machine busy with other runs took longer than 30 s.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8')}`);
    }
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server at ${url} did not become healthy:\n${fs.readFileSync(logFile, 'utf8')}`);
}

function startServer(name: string, port: number, extraEnv: Record<string, string> = {}) {
  const dataDir = path.join(E2E.workDir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(E2E.workDir, `${name}.log`);
  const log = fs.openSync(logFile, 'w');
  const [command, args] = serverCommand();
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: path.join(dataDir, 'e2e.sqlite'),
      SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
      APP_URL: `http://${E2E.host}:${port}`,
      BCRYPT_COST: '10',
      ADMIN_EMAILS: `${E2E.adminEmail},${E2E.unverifiedAdminEmail}`,
      // Every test signs up its own user from one IP; the limits have their own API tests.
      RATE_LIMITS: 'off',
      // Public API calls are counted at once, so the screens show the traffic a test just made (batching has API tests).
      API_USAGE_FLUSH_MS: '0',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
  });
  return { child, url: `http://127.0.0.1:${port}`, logFile };
}

/** The admin account, signed up and verified once before the tests (verifying ends its other sessions, so not during them). */
async function createVerifiedAdmin(baseUrl: string) {
  const post = async (procedure: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/trpc/${procedure}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${procedure}: ${response.status} ${await response.text()}`);
  };
  await post('auth.signUp', { email: E2E.adminEmail, password: PASSWORD, first_name: 'Ada', last_name: null, captcha_token: '' });
  const token = linkIn(await waitForMail(E2E.adminEmail, /verif/i), '/verify-email').searchParams.get('token');
  await post('auth.verifyEmail', { token });
}

export default async function globalSetup() {
  ensureClientBuild();
  await buildServerBundle();
  fs.rmSync(E2E.workDir, { recursive: true, force: true });
  fs.mkdirSync(E2E.workDir, { recursive: true });
  fs.mkdirSync(E2E.screenshotDir, { recursive: true });

  const stopCatcher = await startMailCatcher({ port: E2E.smtpPort, dir: E2E.mailDir });
  const { github: gh } = E2E;
  const github = await startTestGitHub({
    port: E2E.githubPort,
    acceptAnyClient: true,
    defaultUserId: gh.user.id,
    users: [{ id: gh.user.id, login: gh.user.login, name: gh.user.name, emails: [{ email: gh.user.email, primary: true, verified: true }] }],
  });
  const servers = [
    startServer('main', E2E.port, {
      GITHUB_CLIENT_ID: gh.clientId,
      GITHUB_CLIENT_SECRET: gh.clientSecret,
      GITHUB_AUTHORIZE_URL: github.authorizeUrl,
      GITHUB_TOKEN_URL: github.tokenUrl,
      GITHUB_API_URL: github.apiBaseUrl,
      // A project's connection to the stand-in reaches it on loopback.
      CONNECTIONS_ALLOW_PRIVATE: 'on',
      // A project's webhook may post to the loopback receiver a spec starts (tests/e2e/webhooks.spec.ts).
      WEBHOOKS_ALLOW_PRIVATE: 'on',
      // Due deliveries are looked for every 200 ms, so a test event arrives while the spec watches.
      WEBHOOK_POLL_MS: '200',
    }),
    startServer('short-ttl', E2E.shortTtlPort, { ACCESS_TOKEN_TTL: String(E2E.shortTtlS) }),
  ];
  try {
    await Promise.all(servers.map((server) => waitForHealth(server.url, server.child, server.logFile)));
    await createVerifiedAdmin(servers[0]!.url);
  } catch (error) {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all([stopCatcher(), github.close()]);
    throw error;
  }

  return async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (server.child.exitCode !== null) return resolve();
            const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
            server.child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            server.child.kill('SIGTERM');
          }),
      ),
    );
    await Promise.all([stopCatcher(), github.close()]);
  };
}
