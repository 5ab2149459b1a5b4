import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The From display name (a project's sender name); the address stays MAIL_FROM's. */
  fromName?: string;
}

/** MAIL_FROM with the mail's own display name, when it has one. */
export function senderOf(from: string, message: Pick<MailMessage, 'fromName'>): string | { name: string; address: string } {
  if (!message.fromName) return from;
  return { name: message.fromName, address: /<([^>]+)>/.exec(from)?.[1] ?? from.trim() };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Waits for the mails already handed over (at most `drainTimeoutMs`), then closes the transport. */
  close(): Promise<void>;
}

/** How long shutdown waits for mails in flight: a reset link accepted just before SIGTERM still goes out. */
export const DRAIN_TIMEOUT_MS = 10_000;
/** SMTP connections kept open and reused; a burst of sign-ups queues here instead of opening one connection per mail. */
const SMTP_MAX_CONNECTIONS = 3;
/**
 * How long a send waits for a connection, the greeting and each answer (nodemailer's own defaults run to
 * minutes). Together well below MAIL_LEASE_S' default, so an attempt ends before its lease does.
 */
const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

interface Transport {
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise every mail lands as an .eml file in the outbox folder, and the
 * log says where (with the mail's first link only when `logLinks`: links carry tokens).
 */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  logger: FastifyBaseLogger;
  drainTimeoutMs?: number;
  /** Outbox only: print each mail's first link (with its token) to the log. For the local demo only (config.logMailLinks). */
  logLinks?: boolean;
}): Mailer {
  const transport = options.smtpUrl ? smtpTransport(options.smtpUrl, options.from) : outboxTransport(options);
  const inFlight = new Set<Promise<void>>();
  return {
    send(message) {
      const delivery = transport.deliver(message);
      const tracked = delivery.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
      return delivery;
    },
    async close() {
      if (inFlight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS);
        });
        const outcome = await Promise.race([Promise.all(inFlight).then(() => 'drained' as const), timeout]);
        clearTimeout(timer);
        if (outcome === 'timeout') options.logger.warn({ pending: inFlight.size }, 'closing with mails still in flight');
      }
      transport.close();
    },
  };
}

/** Pooled, with timeouts, unless SMTP_URL says otherwise: nodemailer reads transport options from the URL's query (`?pool=false`, `?maxConnections=10`). */
export function smtpTransportUrl(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('pool')) parsed.searchParams.set('pool', 'true');
  if (!parsed.searchParams.has('maxConnections')) parsed.searchParams.set('maxConnections', String(SMTP_MAX_CONNECTIONS));
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS_MS)) if (!parsed.searchParams.has(name)) parsed.searchParams.set(name, String(ms));
  return parsed.toString();
}

function smtpTransport(url: string, from: string): Transport {
  const transport = nodemailer.createTransport(smtpTransportUrl(url));
  return {
    async deliver(message) {
      const { fromName: _name, ...mail } = message;
      await transport.sendMail({ ...mail, from: senderOf(from, message) });
    },
    close: () => transport.close(),
  };
}

function outboxTransport(options: { from: string; outboxDir: string; logger: FastifyBaseLogger; logLinks?: boolean }): Transport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(message) {
      const { fromName: _name, ...mail } = message;
      const info = await transport.sendMail({ ...mail, from: senderOf(options.from, message) });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      const link = options.logLinks ? message.text.match(/https?:\/\/\S+/)?.[0] : undefined;
      options.logger.info({ to: message.to, subject: message.subject, file, ...(link && { link }) }, 'mail written to outbox (SMTP_URL not set)');
    },
    close: () => transport.close(),
  };
}
