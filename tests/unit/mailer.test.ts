import fs from 'node:fs';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, smtpTransportUrl, type MailMessage } from '../../server/mail/mailer.js';
import { SmtpCatcher } from '../helpers/smtp-catcher.js';

const logger = pino({ level: 'silent' });
const message = (to: string, n = 0): MailMessage => ({
  to,
  subject: `Verify your email ${n}`,
  text: `Open http://app.test/verify-email?token=t${n}`,
  html: `<p>${n}</p>`,
});

let catcher: SmtpCatcher | undefined;
afterEach(async () => {
  await catcher?.stop();
  catcher = undefined;
});

describe('SMTP mailer', () => {
  it('delivers every mail of a burst over a small pool of reused connections', async () => {
    catcher = await new SmtpCatcher().start();
    const mailer = createMailer({ smtpUrl: catcher.url, from: 'AuthPlatform <no-reply@app.test>', outboxDir: '/nonexistent', logger });
    await Promise.all(Array.from({ length: 30 }, (_, n) => mailer.send(message(`burst${n}@example.com`, n))));
    await mailer.close();
    expect(catcher.messages).toHaveLength(30);
    expect(new Set(catcher.messages.map((m) => m.to)).size).toBe(30);
    expect(catcher.peakConnections).toBeGreaterThan(0);
    expect(catcher.peakConnections).toBeLessThanOrEqual(3);
    expect(catcher.errors).toEqual([]);
  });

  it('close waits for mails still in flight, so a shutdown right after an answer loses no mail', async () => {
    catcher = await new SmtpCatcher().start();
    const mailer = createMailer({ smtpUrl: catcher.url, from: 'no-reply@app.test', outboxDir: '/nonexistent', logger });
    const sent = Array.from({ length: 5 }, (_, n) => mailer.send(message('late@example.com', n)));
    await mailer.close();
    expect(catcher.messages).toHaveLength(5);
    await Promise.all(sent);
  });

  it('close gives up after the drain timeout when the server never answers', async () => {
    const sockets: Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'no-reply@app.test', outboxDir: '/nonexistent', logger, drainTimeoutMs: 200 });
    const pending = mailer.send(message('stuck@example.com')).catch((error: unknown) => error);
    const started = Date.now();
    await mailer.close();
    expect(Date.now() - started).toBeLessThan(5000);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    expect(await pending).toBeInstanceOf(Error);
  });

  it('pools by default and keeps what SMTP_URL says', () => {
    const pooled = new URL(smtpTransportUrl('smtp://user:p%40ss@mail.example.com:587'));
    expect(pooled.searchParams.get('pool')).toBe('true');
    expect(pooled.searchParams.get('maxConnections')).toBe('3');
    expect(decodeURIComponent(pooled.password)).toBe('p@ss');
    const own = new URL(smtpTransportUrl('smtps://mail.example.com?pool=false&maxConnections=10'));
    expect(own.searchParams.get('pool')).toBe('false');
    expect(own.searchParams.get('maxConnections')).toBe('10');
  });
});

describe('outbox mailer (no SMTP_URL)', () => {
  it('writes each mail as its own .eml file, even two to one address at once', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-outbox-'));
    try {
      const mailer = createMailer({ smtpUrl: null, from: 'no-reply@app.test', outboxDir, logger });
      await Promise.all([mailer.send(message('twice@example.com', 1)), mailer.send(message('twice@example.com', 2))]);
      await mailer.close();
      const files = fs.readdirSync(outboxDir);
      expect(files).toHaveLength(2);
      expect(files.every((f) => f.endsWith('-twice@example.com.eml'))).toBe(true);
      const bodies = files.map((f) => fs.readFileSync(path.join(outboxDir, f), 'utf8'));
      expect(bodies.some((b) => b.includes('token=t1'))).toBe(true);
      expect(bodies.some((b) => b.includes('token=t2'))).toBe(true);
      expect((fs.statSync(path.join(outboxDir, files[0]!)).mode & 0o777).toString(8)).toBe('600');
    } finally {
      fs.rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});

describe('links in the log', () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    return { lines, logger: pino({ level: 'info' }, stream) };
  };

  it('print the token-bearing link only for a loopback APP_URL (the local demo)', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-outbox-'));
    try {
      const local = capture();
      const demo = createMailer({ smtpUrl: null, from: 'no-reply@localhost', outboxDir, logger: local.logger, logLinks: true });
      await demo.send(message('demo@example.com', 7));
      await demo.close();
      expect(local.lines.join('')).toContain('token=t7');

      const deployed = capture();
      const server = createMailer({ smtpUrl: null, from: 'no-reply@app.example', outboxDir, logger: deployed.logger, logLinks: false });
      await server.send(message('prod@example.com', 8));
      await server.close();
      const logged = deployed.lines.join('');
      expect(logged).not.toContain('token=t8');
      expect(logged).toContain(outboxDir);
    } finally {
      fs.rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});
