import fs from 'node:fs/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/**
 * A loopback SMTP server that accepts everything and writes each message as JSON into `dir`,
 * so tests running in other processes can read it.
 */
export async function startMailCatcher({ port, dir }: { port: number; dir: string }): Promise<() => Promise<void>> {
  await fs.mkdir(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // The sender is on loopback: no reverse DNS query per connection, which holds the greeting, up to
    // smtp-server's 1.5 s timeout, wherever the resolver is slow or does not answer.
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((address) =>
            address.value.map((entry) => (entry.address ?? '').toLowerCase()),
          );
          const mail: CaughtMail = {
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: new Date().toISOString(),
          };
          count += 1;
          const file = path.join(dir, `${Date.now()}-${process.pid}-${count}.json`);
          await fs.writeFile(`${file}.tmp`, JSON.stringify(mail));
          await fs.rename(`${file}.tmp`, file);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      // A client dropping a connection mid-message must not take the test runner down with it.
      server.on('error', (error) => console.warn(`mail catcher: ${error.message}`));
      resolve();
    });
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
