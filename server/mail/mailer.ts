import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP when SMTP_URL is set; otherwise every mail lands as an .eml file in the outbox folder and its first link is logged. */
export function createMailer(options: { smtpUrl: string | null; from: string; outboxDir: string; logger: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      const link = message.text.match(/https?:\/\/\S+/)?.[0];
      options.logger.info({ to: message.to, subject: message.subject, file, link }, 'mail written to outbox (SMTP_URL not set)');
    },
    close: () => transport.close(),
  };
}
