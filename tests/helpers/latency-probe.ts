import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** Runs in a process of its own: GETs the URL over one kept-alive connection, one request after another, until told to stop. */
const PROBE = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let stopping = false;
// An optional count: the probe stops by itself after that many answers.
const count = Number(process.argv[2] ?? Infinity);
process.stdin.on('data', () => (stopping = true)).resume();
const get = (url) => new Promise((resolve, reject) => {
  http.get(url, { agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); }).on('error', reject);
});
(async () => {
  while (!stopping && latencies.length < count) {
    const started = performance.now();
    const status = await get(process.argv[1]);
    latencies.push(status === 200 ? performance.now() - started : Infinity);
  }
  process.stdin.destroy();
  agent.destroy();
  process.stdout.end(JSON.stringify(latencies));
})();
`;

/**
 * Measures how long a URL takes to answer, as an outside client (a load balancer's health check)
 * sees it: from another process, so the measuring does not take turns of the server's event loop.
 * A failed answer counts as an infinite latency.
 */
export function startLatencyProbe(url: string, options: { count?: number } = {}): { stop(): Promise<number[]> } {
  const child = spawn(process.execPath, ['-e', PROBE, url, ...(options.count ? [String(options.count)] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  return {
    /** With a count, resolves once that many answers came (or earlier, when told to stop). */
    async stop() {
      if (child.exitCode === null && !options.count) child.stdin.end('stop');
      await exited;
      return (JSON.parse(output) as (number | null)[]).map((latency) => latency ?? Infinity);
    },
  };
}

/** The 99th percentile (nearest rank). */
export function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)]!;
}
