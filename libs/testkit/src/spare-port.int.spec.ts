import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { portBlock, sparePort } from './spare-port';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
const close = (s: Server) => new Promise((resolve) => s.close(resolve));

describe('sparePort', () => {
  const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

  it('gives each jest worker its own block, below the ephemeral range', () => {
    const [a, b] = [portBlock(1, 32768), portBlock(2, 32768)];
    expect(a).toEqual({ from: 32268, to: 32768 });
    expect(b.to).toBe(a.from);
    expect(portBlock(1, low).to).toBeLessThanOrEqual(low);
  });

  it('hands out free ports, never the same one twice, none a listen(0) could be given', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) ports.push(await sparePort());
    expect(new Set(ports).size).toBe(20);
    for (const p of ports) expect(p).toBeLessThan(low);
    const servers = await Promise.all(ports.map(listen)); // every one of them was free to bind
    await Promise.all(servers.map(close));
  });

  it('skips a port some server already holds', async () => {
    const first = await sparePort();
    const held = await Promise.all([first + 1, first + 2, first + 3].map(listen));
    try {
      expect(await sparePort()).toBe(first + 4);
    } finally {
      await Promise.all(held.map(close));
    }
  });
});
