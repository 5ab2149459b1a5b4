import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type { Config } from './config.js';
import { INVALIDATION_ACK_TIMEOUT_MS, isInvalidationMessage, type InvalidationMessage } from './lib/invalidations.js';
import { prettyLogs } from './lib/logging.js';

/** How the primary hands the configuration it read to its workers, which never read the environment themselves. */
const WORKER_CONFIG = 'AUTHPLATFORM_WORKER_CONFIG';
/** A worker that has not finished its requests this long after SIGTERM is killed. */
const DRAIN_TIMEOUT_MS = 15_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') Object.values(value).forEach(deepFreeze);
  return Object.freeze(value);
}

/** In a worker: the configuration its primary read. */
export function configFromPrimary(): Config | null {
  const json = cluster.isWorker ? process.env[WORKER_CONFIG] : undefined;
  return json ? deepFreeze(JSON.parse(json) as Config) : null;
}

/** The primary's few lines, in the shape of the workers' (pino JSON lines, or a readable line on a terminal). */
function primaryLogger(config: Config) {
  const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
  const write = (level: 'info' | 'warn' | 'error', msg: string) => {
    if (levels[level] < levels[config.logLevel]) return;
    const line = prettyLogs(config)
      ? `[${new Date().toTimeString().slice(0, 8)}] ${level.toUpperCase()}: ${msg}`
      : JSON.stringify({ level: levels[level], time: Date.now(), pid: process.pid, hostname: os.hostname(), msg });
    (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
  };
  return { info: (msg: string) => write('info', msg), warn: (msg: string) => write('warn', msg), error: (msg: string) => write('error', msg) };
}

/**
 * Without Redis, a worker's change to something the workers cache (db/invalidations) comes here; it is
 * handed to every other worker and answered once each has dropped its copies.
 */
function relayInvalidations(): void {
  const pending = new Map<string, { remaining: number; answer: () => void }>();
  cluster.on('message', (from: Worker, message: unknown) => {
    if (!isInvalidationMessage(message)) return;
    if (message.authplatform === 'invalidated') {
      const change = pending.get(message.id);
      if (change && --change.remaining === 0) change.answer();
      return;
    }
    const others = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && worker !== from && worker.isConnected());
    let timer: NodeJS.Timeout | undefined;
    const answer = () => {
      pending.delete(message.id);
      clearTimeout(timer);
      if (from.isConnected()) from.send({ authplatform: 'invalidated', id: message.id } satisfies InvalidationMessage);
    };
    if (others.length === 0) return answer();
    pending.set(message.id, { remaining: others.length, answer });
    timer = setTimeout(answer, INVALIDATION_ACK_TIMEOUT_MS);
    for (const worker of others) worker.send(message);
  });
}

/**
 * WORKERS=N: N server processes sharing the port (node:cluster hands connections out in turn). The
 * primary serves nothing: it forks the workers with the configuration it read, replaces one that dies
 * after it started serving, stops everything when one cannot start, and on SIGTERM or SIGINT lets each
 * worker drain its requests and exits once all have.
 */
export function runWorkers(config: Config): void {
  const log = primaryLogger(config);
  const env = { [WORKER_CONFIG]: JSON.stringify(config) };
  const serving = new WeakSet<Worker>();
  let stopping = false;

  const live = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && !worker.isDead());
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    process.exitCode = code;
    const workers = live();
    if (workers.length === 0) process.exit();
    for (const worker of workers) {
      worker.process.kill('SIGTERM');
      setTimeout(() => worker.process.kill('SIGKILL'), DRAIN_TIMEOUT_MS).unref();
    }
  };

  relayInvalidations();
  cluster.on('listening', (worker) => serving.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (live().length === 0) process.exit();
      return;
    }
    if (!serving.has(worker)) {
      log.error(`worker ${worker.process.pid} could not start (exit ${signal ?? code}); stopping`);
      stop(1);
      return;
    }
    log.warn(`worker ${worker.process.pid} stopped (exit ${signal ?? code}); starting another`);
    cluster.fork(env);
  });
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));

  for (let i = 0; i < config.workers; i++) cluster.fork(env);
  log.info(`AuthPlatform starting ${config.workers} workers on http://${config.host}:${config.port}`);
}
