import net from 'node:net';

/**
 * A TCP relay in front of the MongoDB-protocol server that counts what the services send: per
 * command name and collection, the round trips and the documents they carry (an insert's documents, an update's
 * statements). The local server keeps no `serverStatus` operation counters, so the benchmark
 * counts on the wire instead (OP_MSG, the only opcode current drivers send).
 */
type Counts = Map<string, { commands: number; documents: number }>;

export class MongoTap {
  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly counts: Counts,
  ) {}

  static async start(target: { host: string; port: number }): Promise<MongoTap> {
    const counts: Counts = new Map();
    const server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      let pending: Buffer = Buffer.alloc(0);
      client.on('data', (chunk: Buffer) => {
        upstream.write(chunk);
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        while (pending.length >= 16 && pending.length >= pending.readInt32LE(0)) {
          const length = pending.readInt32LE(0);
          countMessage(pending.subarray(0, length), counts);
          pending = pending.subarray(length);
        }
      });
      upstream.pipe(client);
      const close = () => (client.destroy(), upstream.destroy());
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return new MongoTap(server, (server.address() as net.AddressInfo).port, counts);
  }

  snapshot(): Counts {
    return new Map([...this.counts].map(([k, v]) => [k, { ...v }]));
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const OP_MSG = 2013;

function countMessage(msg: Buffer, counts: Counts): void {
  if (msg.readInt32LE(12) !== OP_MSG) return;
  let at = 20; // header (16) + flagBits (4)
  let name = '?';
  let documents = 0;
  const end = msg.length - (msg.readUInt32LE(16) & 1 ? 4 : 0); // checksum present
  while (at < end) {
    const kind = msg[at++];
    const size = msg.readInt32LE(at);
    if (kind === 0) {
      // The body: its first element's name is the command, and a string value its collection.
      const nameEnd = msg.indexOf(0, at + 5);
      name = msg.toString('utf8', at + 5, nameEnd);
      if (msg[at + 4] === 0x02) {
        const length = msg.readInt32LE(nameEnd + 1);
        name += ` ${msg.toString('utf8', nameEnd + 5, nameEnd + 4 + length)}`;
      }
    } else {
      // A document sequence: size, identifier, then the documents.
      let doc = msg.indexOf(0, at + 4) + 1;
      while (doc < at + size) {
        documents++;
        doc += msg.readInt32LE(doc);
      }
    }
    at += size;
  }
  const c = counts.get(name) ?? { commands: 0, documents: 0 };
  c.commands++;
  c.documents += documents;
  counts.set(name, c);
}

/** "insert 0.02 (1.00 documents), find 0.10, …" per delivered event, busiest first. */
export function perEventSummary(before: Counts, after: Counts, events: number): string {
  const n = Math.max(1, events);
  return [...after]
    .map(([name, c]) => {
      const b = before.get(name) ?? { commands: 0, documents: 0 };
      return { name, commands: c.commands - b.commands, documents: c.documents - b.documents };
    })
    .filter((c) => c.commands > 0)
    .sort((x, y) => y.commands - x.commands)
    .map(
      (c) =>
        `${c.name} ${(c.commands / n).toFixed(3)}` +
        (c.documents ? ` (${(c.documents / n).toFixed(2)} documents)` : ''),
    )
    .join(', ');
}
