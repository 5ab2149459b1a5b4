import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './tcp-probe.js';

/** Whether a `redis-server` binary is on the PATH (these machines have one). */
export const redisServerInstalled = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

/**
 * A redis-server of the test's own on a loopback port (no persistence), which the test may kill and
 * start again on the same port, as a Redis that restarts would.
 */
export interface OwnRedis {
  url: string;
  port: number;
  /** Starts it (again); resolves once it accepts connections. */
  start(): Promise<void>;
  /** SIGKILL, as a crash; resolves once the process is gone. */
  kill(): Promise<void>;
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
      child = started;
      // Not left behind when the test process ends without its afterAll (a hook that timed out).
      const killOnExit = () => started.kill('SIGKILL');
      process.once('exit', killOnExit);
      started.once('exit', () => process.off('exit', killOnExit));
      let output = '';
      await new Promise<void>((resolve, reject) => {
        started.stdout!.setEncoding('utf8').on('data', (text: string) => {
          output += text;
          if (output.includes('Ready to accept connections')) resolve();
        });
        started.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
      });
      started.stdout!.resume();
    },
    async kill() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      child = null;
    },
  };
}
