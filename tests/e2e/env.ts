import os from 'node:os';
import path from 'node:path';

/** Where the e2e servers listen and where caught mail lands. Shared by the config, the setup and the tests. */
const port = Number(process.env.E2E_PORT ?? 4610);
const shortTtlPort = Number(process.env.E2E_SHORT_TTL_PORT ?? port + 1);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 15);
const githubPort = Number(process.env.E2E_GITHUB_PORT ?? port + 16);
/**
 * The mail spec's local demo (a server of its own). Every port of a run lies within E2E_PORT…+17, so runs whose
 * E2E_PORTs are 10 apart (4610, 4620, 4630…) never take each other's ports; at +30 it was the next-but-two run's
 * main server.
 */
const demoPort = Number(process.env.E2E_DEMO_PORT ?? port + 17);
/** The operator spec's server (LANDING_PAGE off, legal pages, the platform's ALTCHA captcha), a server of its own too. */
const operatorPort = Number(process.env.E2E_OPERATOR_PORT ?? port + 2);

/** localhost rather than 127.0.0.1: passkeys need a host name (WebAuthn refuses IP addresses as relying parties). */
const host = 'localhost';

export const E2E = {
  port,
  shortTtlPort,
  smtpPort,
  githubPort,
  demoPort,
  operatorPort,
  baseURL: `http://${host}:${port}`,
  /** A second server whose access tokens live SHORT_TTL_S seconds (the refresh test). */
  shortTtlURL: `http://${host}:${shortTtlPort}`,
  // Long enough that a slow reload under load does not outlive the refreshed token (a second refresh would be legitimate).
  shortTtlS: 6,
  host,
  workDir: path.join(os.tmpdir(), `authplatform-e2e-${port}`),
  /**
   * server/main.ts bundled once by the global setup (tests/e2e/server-bundle.ts), which every server of the run
   * starts from with plain node. One folder below the root, as server/main.ts is: the server finds package.json
   * and dist/client relative to its own file.
   */
  serverBundle: path.resolve(import.meta.dirname, `../../test-results/e2e-server-${port}.mjs`),
  mailDir: path.join(os.tmpdir(), `authplatform-e2e-${port}`, 'mail'),
  /** An admin (ADMIN_EMAILS) whose address the global setup verifies: the role counts only once verified. */
  adminEmail: 'e2e-admin@example.com',
  /** Also listed in ADMIN_EMAILS, never verified: the role stays inert. */
  unverifiedAdminEmail: 'e2e-unverified-admin@example.com',
  /**
   * The GitHub stand-in (tests/helpers/identity-providers) the main server signs in with, in GitHub
   * Enterprise's layout. Its one user authorizes every sign-in; its address is used by no other test.
   */
  github: {
    origin: `http://127.0.0.1:${githubPort}`,
    clientId: 'e2e-github-client',
    clientSecret: 'e2e-github-secret',
    user: { id: 4242, login: 'e2e-octocat', name: 'Octo Cat', email: 'e2e-octocat@example.com' },
  },
  /**
   * Whether the run writes screenshots (captureScreen in support.ts): on a developer's machine, for review; not in CI
   * (CI=true), which skips encoding the PNGs of the other specs and leaves out screenshots.spec.ts (playwright.config.ts), unless
   * SCREENSHOTS=1 or UPDATE_SCREENSHOTS=1.
   */
  captureScreenshots: Boolean(process.env.UPDATE_SCREENSHOTS || process.env.SCREENSHOTS === '1' || !process.env.CI),
  /** Screenshots of every main screen, for review; `UPDATE_SCREENSHOTS=1` writes them into the README's docs/screenshots/ instead. */
  screenshotDir: process.env.UPDATE_SCREENSHOTS
    ? path.resolve(import.meta.dirname, '../../docs/screenshots')
    : path.resolve(import.meta.dirname, '../../test-results/screenshots'),
} as const;
