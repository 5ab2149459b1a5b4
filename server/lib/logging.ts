import type { Config } from '../config.js';

/** pino-pretty in a worker thread: one readable line per event, local time, no pid or hostname. */
export const PRETTY_TRANSPORT = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } };

/** Readable lines for a person at a terminal (`npm start`); JSON lines for everything else. */
export function prettyLogs(config: Pick<Config, 'logFormat' | 'logLevel'>, stdoutIsTty = Boolean(process.stdout.isTTY)): boolean {
  if (config.logLevel === 'silent') return false;
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdoutIsTty);
}
