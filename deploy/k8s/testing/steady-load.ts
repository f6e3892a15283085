import type { Receiver } from '@hookrail/testkit';
import { watchHostStalls, type StallShares } from './host-stalls';

/** Sends the `seq`th event, carrying `marker`: true when accepted, else why it was refused. */
export type SendOne = (marker: string, seq: number) => Promise<true | string>;

export interface LoadReport {
  phase: string;
  /** Events Hookrail accepted (each retried until accepted: a refused send is not an event). */
  sent: number;
  delivered: number;
  lost: number;
  duplicated: number;
  /** Sends refused and retried, e.g. while a pod was going away, by reason (status or error code). */
  refusedThenRetried: Record<string, number>;
  /** From the last acceptance until every accepted event had arrived. */
  drainMs: number;
  /** How much of the phase, drain included, this host's tasks waited for CPU, I/O or memory. */
  hostStalls: StallShares | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REFUSED_RETRY_MS = 250;
const GIVE_UP_MS = 60_000;

/**
 * The events of one phase, each with a marker of its own: what Hookrail accepted, what it refused
 * first, and at the end what arrived at the receiver (an accepted event that never arrives is lost).
 */
class Phase {
  readonly accepted: string[] = [];
  private readonly refused: Record<string, number> = {};
  private readonly stalls = watchHostStalls();

  constructor(
    readonly name: string,
    private readonly send: SendOne,
  ) {}

  marker(seq: number): string {
    return `${this.name}-${seq}-${Date.now()}`;
  }

  /** A refused send is retried until accepted, as a client would. */
  async sendUntilAccepted(marker: string, seq: number): Promise<void> {
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      const outcome = await this.send(marker, seq).catch(
        (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.name,
      );
      if (outcome === true) {
        this.accepted.push(marker);
        return;
      }
      if (Date.now() > deadline) throw new Error(`${marker} refused for ${GIVE_UP_MS / 1000} s: ${outcome}`);
      this.refused[outcome] = (this.refused[outcome] ?? 0) + 1;
      await sleep(REFUSED_RETRY_MS);
    }
  }

  /** Waits up to `drainTimeoutMs` for every accepted event to arrive, then counts. */
  async report(receiver: Receiver, drainTimeoutMs: number): Promise<LoadReport> {
    const drainStart = Date.now();
    const arrivals = () => {
      const counts = new Map<string, number>();
      for (const r of receiver.requests) {
        const marker = (JSON.parse(r.body) as { marker?: string }).marker;
        if (marker?.startsWith(`${this.name}-`)) counts.set(marker, (counts.get(marker) ?? 0) + 1);
      }
      return counts;
    };
    let counts = arrivals();
    while (this.accepted.some((m) => !counts.has(m)) && Date.now() - drainStart < drainTimeoutMs) {
      await sleep(500);
      counts = arrivals();
    }
    const delivered = this.accepted.filter((m) => counts.has(m)).length;
    return {
      phase: this.name,
      sent: this.accepted.length,
      delivered,
      lost: this.accepted.length - delivered,
      duplicated: [...counts.values()].reduce((sum, n) => sum + n - 1, 0),
      refusedThenRetried: this.refused,
      drainMs: Date.now() - drainStart,
      hostStalls: this.stalls.shares(),
    };
  }
}

/** Events at a steady rate while something happens to the release (scaling, a rolling upgrade, pod kills). */
export class SteadyLoad {
  private readonly phase: Phase;
  private running = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: Promise<void>;

  constructor(
    phase: string,
    private readonly perSecond: number,
    send: SendOne,
  ) {
    this.phase = new Phase(phase, send);
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    for (let seq = 0; this.running; seq++) {
      const one = this.phase
        .sendUntilAccepted(this.phase.marker(seq), seq)
        .finally(() => this.inFlight.delete(one));
      this.inFlight.add(one);
      await sleep(1000 / this.perSecond);
    }
  }

  /** Stops sending, then waits up to `drainTimeoutMs` for every accepted event to arrive. */
  async stop(receiver: Receiver, drainTimeoutMs = 180_000): Promise<LoadReport> {
    this.running = false;
    await this.loop;
    await Promise.all(this.inFlight);
    return this.phase.report(receiver, drainTimeoutMs);
  }
}

/**
 * Sends `count` events as fast as `connections` senders get them accepted, and gives the time
 * that took and a `report` to call once whatever should deliver them runs (the count waits up
 * to `drainTimeoutMs` for every one to arrive).
 */
export async function burst(
  phase: string,
  count: number,
  connections: number,
  send: SendOne,
): Promise<{
  acceptMs: number;
  report: (receiver: Receiver, drainTimeoutMs?: number) => Promise<LoadReport>;
}> {
  const p = new Phase(phase, send);
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let seq = next++; seq < count; seq = next++) await p.sendUntilAccepted(p.marker(seq), seq);
    }),
  );
  return {
    acceptMs: Date.now() - t0,
    report: (receiver, drainTimeoutMs = 300_000) => p.report(receiver, drainTimeoutMs),
  };
}
