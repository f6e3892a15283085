import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy to a real server that can be shut (open connections cut, new ones refused) and
 * opened again: an outage of a dependency without stopping the server other tests share. `slow`
 * holds each answer back for a while: a server that is busy, not gone.
 */
export async function gatedProxy(target: { host: string; port: number }, initiallyOpen = false) {
  let open = initiallyOpen;
  let answerDelayMs = 0;
  /** The answers `slow` holds back: dropped with the connections they were for. */
  const held = new Set<NodeJS.Timeout>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (answerDelayMs === 0) return void client.write(chunk);
      const timer = setTimeout(() => {
        held.delete(timer);
        if (client.writable) client.write(chunk);
      }, answerDelayMs);
      held.add(timer);
    });
    upstream.on('end', () => client.end());
    const drop = () => {
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', drop);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const cut = () => {
    held.forEach((t) => clearTimeout(t));
    held.clear();
    sockets.forEach((s) => s.destroy());
    sockets.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    open: () => void (open = true),
    /** Each answer from the server reaches the client `ms` later (0: at once), in order. */
    slow: (ms: number) => void (answerDelayMs = ms),
    shut: () => {
      open = false;
      cut();
    },
    close: async () => {
      cut();
      await new Promise((r) => server.close(r));
    },
  };
}
