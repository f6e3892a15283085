/**
 * What a wake-up costs on this host: a node process that echoes 200-byte messages over loopback
 * TCP, sent one at a time, back to back and at fixed rates. Back to back the echo finds its
 * process awake or about to be; at 200/s every message wakes it from idle, as each event wakes each
 * process of the stack at the events bench's 200/s phase. The difference is the price of being
 * woken (the scheduler, and on a virtual machine the hypervisor's exits and cold caches), paid
 * in the woken process's CPU time; it sets a floor under the CPU per event at a low rate whatever
 * the work per event (docs/decisions.md, "The events API against `0541b55`").
 *
 *   npm run bench:wake                 # 3 rounds
 *   BENCH_ROUNDS=5 BENCH_SECONDS=10 npm run bench:wake
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { formatRange } from './support/compare-summary';
import { wakeUps } from './support/processes';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Messages per second offered; 0 is back to back. */
const RATES = [0, 5_000, 1_000, 200];
const MESSAGE = Buffer.alloc(200, 'x');

/** The echo; it reports its own CPU (getrusage, to the µs: /proc's ticks are 10 ms) when asked. */
const ECHO = `
  const server = require('node:net').createServer((s) => s.on('data', (d) => s.write(d)));
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send({ cpuUs: user + system });
  });
`;

interface Figures {
  /** The echo process's CPU per message, µs. */
  cpuUs: number;
  /** Times the echo process was woken per message. */
  wakeUps: number;
  messagesPerSecond: number;
}

async function startEcho(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [{ port }] = (await once(child, 'message')) as [{ port: number }];
  return { child, port };
}

async function echoCpuUs(child: ChildProcess): Promise<number> {
  child.send('cpu');
  const [{ cpuUs }] = (await once(child, 'message')) as [{ cpuUs: number }];
  return cpuUs;
}

/** Sends one message at a time for SECONDS (at `rate` per second, or back to back), each after the last echo. */
async function measure(child: ChildProcess, port: number, rate: number): Promise<Figures> {
  const pid = child.pid!;
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const echoed = () => once(socket, 'data');
  // Warm-up: the echo's code compiled and its socket buffers allocated before counting.
  for (let i = 0; i < 500; i++) await Promise.all([echoed(), socket.write(MESSAGE)]);

  const [cpu0, wake0, t0] = [await echoCpuUs(child), wakeUps(pid), Date.now()];
  let sent = 0;
  while (Date.now() - t0 < SECONDS * 1000) {
    if (rate > 0) {
      const wait = t0 + (sent * 1000) / rate - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await Promise.all([echoed(), socket.write(MESSAGE)]);
    sent++;
  }
  const seconds = (Date.now() - t0) / 1000;
  // Read before the CPU is asked for: the question wakes the echo too.
  const woken = wakeUps(pid) - wake0;
  const cpuUs = (await echoCpuUs(child)) - cpu0;
  socket.destroy();
  return {
    cpuUs: cpuUs / sent,
    wakeUps: woken / sent,
    messagesPerSecond: sent / seconds,
  };
}

async function main(): Promise<void> {
  const results = new Map<number, Figures[]>(RATES.map((r) => [r, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    // A fresh process each round, so one round's heap and caches do not carry into the next.
    const echo = await startEcho();
    try {
      for (const rate of RATES) results.get(rate)!.push(await measure(echo.child, echo.port, rate));
    } finally {
      echo.child.kill();
    }
  }
  console.log(
    `An echo process, one 200-byte message at a time over loopback TCP, ${ROUNDS} rounds of ${SECONDS} s:`,
  );
  console.log('| offered | messages/s | echo CPU µs per message | echo woken per message |');
  console.log('|---|---|---|---|');
  for (const [rate, runs] of results)
    console.log(
      `| ${rate === 0 ? 'back to back' : `${rate}/s`} | ${formatRange(
        runs.map((f) => f.messagesPerSecond),
        0,
      )} | ${formatRange(
        runs.map((f) => f.cpuUs),
        0,
      )} | ${formatRange(
        runs.map((f) => f.wakeUps),
        2,
      )} |`,
    );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
