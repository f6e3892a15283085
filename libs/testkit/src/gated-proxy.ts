import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy to a real server that can be shut (open connections cut, new ones refused) and
 * opened again: an outage of a dependency without stopping the server other tests share.
 */
export async function gatedProxy(target: { host: string; port: number }, initiallyOpen = false) {
  let open = initiallyOpen;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
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
    sockets.forEach((s) => s.destroy());
    sockets.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    open: () => void (open = true),
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
