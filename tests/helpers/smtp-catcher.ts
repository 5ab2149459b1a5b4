import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** First http(s) link in the text part. */
  link: string | null;
  /** The From header as written ("Name" <address>). */
  from: string;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export class SmtpCatcher {
  readonly messages: CaughtMail[] = [];
  /** Socket errors the server saw (a client dropping a connection mid-message); kept instead of crashing the test run. */
  readonly errors: Error[] = [];
  /** Most SMTP connections that were open at the same time. */
  peakConnections = 0;
  private openConnections = 0;
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  port = 0;
  /** Recipients refused for good at RCPT TO (550), as a mailbox that does not exist is. */
  readonly refused = new Set<string>();

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // The sender is on loopback: no reverse DNS query per connection, which holds the greeting, up to
      // smtp-server's 1.5 s timeout, wherever the resolver is slow or does not answer.
      disableReverseLookup: true,
      onConnect: (_session, callback) => {
        this.openConnections += 1;
        this.peakConnections = Math.max(this.peakConnections, this.openConnections);
        callback();
      },
      onClose: () => {
        this.openConnections -= 1;
      },
      onRcptTo: (address, _session, callback) => {
        if (!this.refused.has(address.address.toLowerCase())) return callback();
        const error = new Error('5.1.1 No such user here') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed: ParsedMail) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
            const text = parsed.text ?? '';
            this.messages.push({
              to: (to ?? '').toLowerCase(),
              subject: parsed.subject ?? '',
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              link: text.match(/https?:\/\/\S+/)?.[0] ?? null,
              from: parsed.from?.text ?? '',
            });
            for (const wake of this.waiters.splice(0)) wake();
            callback();
          })
          .catch(callback);
      },
    });
    this.server.on('error', (error) => this.errors.push(error));
  }

  /** Listens on `port` (a free one by default: a test may start the server a mailer already points at). */
  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /**
   * Waits for a message to `to` matching `subject` that arrives after `afterCount` messages were already in. It returns
   * as soon as one does; the default bound (30 s, as the client tests' waits) is for a machine busy with other runs,
   * where 5 s was missed at a load average of 25. That a mail is not sent is shown by mailSettled(), never by this timing out.
   */
  async waitFor(to: string, subject?: RegExp, options: { timeoutMs?: number; after?: number } = {}): Promise<CaughtMail> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    const match = () =>
      this.messages.slice(options.after ?? 0).find((m) => m.to === to.toLowerCase() && (!subject || subject.test(m.subject)));
    for (;;) {
      const found = match();
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''} within the timeout`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  to(address: string): CaughtMail[] {
    return this.messages.filter((m) => m.to === address.toLowerCase());
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
