import dgram from 'node:dgram';
import dns from 'node:dns';

/**
 * A DNS server on loopback answering TXT questions from a table a test fills (NXDOMAIN otherwise),
 * made this process's resolver while it runs: how a test publishes a domain's verification record.
 */
export interface TestDnsServer {
  setTxt(name: string, values: string[]): void;
  close(): Promise<void>;
}

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (at < message.length && message[at] !== 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

function answerOf(query: Buffer, records: Map<string, string[]>): Buffer {
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const values = type === 16 ? records.get(name) : undefined;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(values ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values ? values.length : 0, 6);
  const answers = (values ?? []).map((value) => {
    const text = Buffer.from(value, 'utf8');
    const rdata = Buffer.concat([Buffer.from([text.length]), text]);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0);
    fixed.writeUInt16BE(16, 2);
    fixed.writeUInt16BE(1, 4);
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => socket.send(answerOf(query, records), peer.port, peer.address));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const previous = dns.getServers();
  const ours = [`127.0.0.1:${socket.address().port}`];
  dns.setServers(ours);
  dns.promises.setServers(ours);
  return {
    setTxt: (name, values) => records.set(name.toLowerCase(), values),
    close: async () => {
      dns.setServers(previous);
      dns.promises.setServers(previous);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
