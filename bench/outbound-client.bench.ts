/**
 * The outbound HTTP client's own CPU per request: N POSTs of a 1 KB body at C concurrency on
 * keep-alive connections to a receiver in a child process, through libs/outbound's HttpClient
 * (what a delivery attempt uses), through a bare undici Pool (the floor of what HttpClient is
 * built on), and through a bare node:http request on a keep-alive agent (what it was built on
 * before). Prints CPU µs per request of this process for each, alternating, several rounds.
 * (got, which HttpClient used before node:http, measured about 3× node:http: docs/decisions.md.)
 *
 *   npm run bench:outbound            # BENCH_N=20000 BENCH_C=50 BENCH_ROUNDS=3
 */
import http from 'node:http';
import { fork } from 'node:child_process';
import { Pool } from 'undici';
import { HttpClient } from '@hookrail/outbound';

const N = Number(process.env.BENCH_N ?? 20_000);
const C = Number(process.env.BENCH_C ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BODY = JSON.stringify({ data: 'x'.repeat(1000) });

if (process.argv[2] === 'receiver') {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
} else {
  void main();
}

async function main(): Promise<void> {
  const child = fork(__filename, ['receiver'], { execArgv: process.execArgv });
  const port = await new Promise<number>((r) => child.once('message', (p) => r(p as number)));
  const url = `http://127.0.0.1:${port}/hook`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: C, maxFreeSockets: C });
  const client = new HttpClient({ allowPrivateTargets: true, maxSocketsPerPool: C });
  const headers = { 'content-type': 'application/json', 'x-signature': 'abc' };
  const viaClient = async () => {
    const r = await client.send({ url, headers, body: BODY, timeoutMs: 30_000, poolKey: 'bench' });
    if (r.kind !== 'response') throw new Error(r.message);
    return r.status;
  };
  const viaHttp = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(BODY) },
          agent,
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            Buffer.concat(chunks).toString('utf8');
            resolve(res.statusCode ?? 0);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(BODY);
    });
  const pool = new Pool(new URL(url).origin, { connections: C });
  const viaUndici = async () => {
    const res = await pool.request({
      path: '/hook',
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(BODY)) },
      body: BODY,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    await res.body.text();
    return res.statusCode;
  };
  const run = async (send: () => Promise<number>) => {
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next++ < N) await send();
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    return { us: (cpu.user + cpu.system) / N, rps: N / ((performance.now() - t0) / 1000) };
  };
  await run(viaHttp);
  await run(viaClient);
  await run(viaUndici);
  for (let round = 1; round <= ROUNDS; round++)
    for (const [name, send] of [
      ['HttpClient', viaClient],
      ['node:http', viaHttp],
      ['undici', viaUndici],
    ] as const) {
      const r = await run(send);
      console.log(
        `round ${round} ${name.padEnd(10)} ${r.us.toFixed(0)} µs CPU per request, ${r.rps.toFixed(0)} requests/s`,
      );
    }
  agent.destroy();
  client.close();
  await pool.close();
  child.kill();
}
