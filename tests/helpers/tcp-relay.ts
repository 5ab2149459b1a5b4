import net from 'node:net';

/**
 * A TCP relay to `target` that a test can turn into a black hole, as a network partition or a server
 * that has gone away without a word would be: existing connections are cut, and new ones are accepted
 * but never answered (nothing reaches the target).
 */
export interface TcpRelay {
  /** The loopback port it listens on. */
  port: number;
  blackHole(): void;
  forward(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let forwarding = true;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (!forwarding) return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    blackHole() {
      forwarding = false;
      for (const socket of sockets) socket.destroy();
    },
    forward() {
      forwarding = true;
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
