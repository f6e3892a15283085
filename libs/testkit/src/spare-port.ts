import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports each jest worker hands out: a block of its own, so two workers never pick the same. */
const BLOCK = 500;

/**
 * The first port of the kernel's ephemeral range, where every `listen(0)` and every outgoing
 * connection takes its port (Linux; 32768 where it cannot be read).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2 * BLOCK ? low : 32768;
  } catch {
    return 32768;
  }
}

/** The ports jest worker `worker` (1, 2, …) hands out: below the ephemeral range, one block each. */
export function portBlock(worker: number, low = ephemeralLow()): { from: number; to: number } {
  const to = low - (worker - 1) * BLOCK;
  return { from: Math.max(1024, to - BLOCK), to };
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

const block = portBlock(Number(process.env.JEST_WORKER_ID ?? 1));
let next = block.from;

/**
 * A free port for a server a test starts later (a service's process, a private broker). Not one
 * from `listen(0)` closed again: in the seconds a child process takes to bind it, any other test's
 * `listen(0)` could be given the same port, and a readiness probe then reached that test's
 * receiver. These come from below the ephemeral range, from this jest worker's own block, and
 * never twice from one test file, so between this check and the bind nothing else takes them.
 */
export async function sparePort(): Promise<number> {
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = next;
    next = next + 1 < block.to ? next + 1 : block.from;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${block.from}–${block.to - 1}`);
}
