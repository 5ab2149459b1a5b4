import net from 'node:net';

/**
 * A TCP relay to `target` that a test can turn into a black hole (existing connections are cut, and
 * new ones are accepted but never answered: a server gone, its address not yet taken over), partition
 * (nothing passes any more, and nothing is closed either: packets vanish), cut (connections closed, as
 * a restart would), or make hold back what a client sends from the first chunk matching a pattern on
 * (a command held up on its way). It can also record what clients send, whether it passes or not.
 */
export interface TcpRelay {
  /** The loopback port it listens on. */
  port: number;
  blackHole(): void;
  partition(): void;
  /** Forwards again; existing connections are cut. */
  forward(): void;
  /** Forwards again, new connections only: those made before stay as they are (dead after a partition). */
  heal(): void;
  /** Resolves when the next connection a client made is closed (by either side). */
  nextClientClose(): Promise<void>;
  /** Holds back what clients send from the first chunk matching `pattern` on; `held` resolves once one did. */
  holdFrom(pattern: RegExp): { held: Promise<void>; release(): void };
  /**
   * Records what clients send from now on, whether it passes or not (a partition drops it after recording), on
   * connections made while forwarding or while a recording runs: `text()` is all of it so far, to show that a
   * client asked, or did not ask, something.
   */
  record(): { text(): string };
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let forwarding = true;
  let partitioned = false;
  let hold: { pattern: RegExp; held: () => void; queue: Array<() => void> } | null = null;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let clientClosed: Array<() => void> = [];
  const recordings: Buffer[][] = [];
  const record = (chunk: Buffer) => recordings.forEach((recording) => recording.push(chunk));
  const server = net.createServer((client) => {
    track(client);
    // Only while something records does an unforwarded connection get read: otherwise it stays as it always was.
    if (forwarding || recordings.length > 0) client.on('data', record);
    client.on('close', () => {
      const waiting = clientClosed;
      clientClosed = [];
      waiting.forEach((resolve) => resolve());
    });
    if (!forwarding) return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (!partitioned) client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('end', () => upstream.end());
    let holding = false;
    client.on('data', (chunk: Buffer) => {
      if (partitioned) return;
      const send = () => upstream.write(chunk);
      if (hold && (holding || hold.pattern.test(chunk.toString('latin1')))) {
        holding = true;
        hold.queue.push(send);
        hold.held();
      } else {
        send();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    blackHole() {
      forwarding = false;
      cut();
    },
    partition() {
      forwarding = false;
      partitioned = true;
    },
    forward() {
      forwarding = true;
      partitioned = false;
      cut();
    },
    heal() {
      forwarding = true;
      partitioned = false;
    },
    nextClientClose: () => new Promise<void>((resolve) => clientClosed.push(resolve)),
    holdFrom(pattern) {
      let held!: () => void;
      const heldPromise = new Promise<void>((resolve) => (held = resolve));
      const current = { pattern, held, queue: [] as Array<() => void> };
      hold = current;
      return {
        held: heldPromise,
        release() {
          if (hold === current) hold = null;
          for (const send of current.queue) send();
        },
      };
    },
    record() {
      const chunks: Buffer[] = [];
      recordings.push(chunks);
      return { text: () => Buffer.concat(chunks).toString('latin1') };
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
