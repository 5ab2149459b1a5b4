import os from 'node:os';
import path from 'node:path';

/** Where the e2e servers listen and where caught mail lands. Shared by the config, the setup and the tests. */
const port = Number(process.env.E2E_PORT ?? 4610);
const shortTtlPort = Number(process.env.E2E_SHORT_TTL_PORT ?? port + 1);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 15);

export const E2E = {
  port,
  shortTtlPort,
  smtpPort,
  baseURL: `http://127.0.0.1:${port}`,
  /** A second server whose access tokens live SHORT_TTL_S seconds (the refresh test). */
  shortTtlURL: `http://127.0.0.1:${shortTtlPort}`,
  shortTtlS: 3,
  workDir: path.join(os.tmpdir(), `authplatform-e2e-${port}`),
  mailDir: path.join(os.tmpdir(), `authplatform-e2e-${port}`, 'mail'),
  /** An admin (ADMIN_EMAILS) whose address the global setup verifies: the role counts only once verified. */
  adminEmail: 'e2e-admin@example.com',
  /** Also listed in ADMIN_EMAILS, never verified: the role stays inert. */
  unverifiedAdminEmail: 'e2e-unverified-admin@example.com',
  /** Screenshots of every main screen, for review; `UPDATE_SCREENSHOTS=1` writes them into the README's docs/screenshots/ instead. */
  screenshotDir: process.env.UPDATE_SCREENSHOTS
    ? path.resolve(import.meta.dirname, '../../docs/screenshots')
    : path.resolve(import.meta.dirname, '../../test-results/screenshots'),
} as const;
