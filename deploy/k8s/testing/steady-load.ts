import type { Receiver } from '@hookrail/testkit';

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
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REFUSED_RETRY_MS = 250;
const GIVE_UP_MS = 60_000;

/**
 * Events at a steady rate while something happens to the release (scaling, a rolling upgrade, pod
 * kills), each with a marker of its own, then counts at the receiver what arrived: an accepted
 * event that never arrives is lost. A refused send is retried until accepted, as a client would.
 */
export class SteadyLoad {
  private readonly accepted: string[] = [];
  private readonly refused: Record<string, number> = {};
  private running = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: Promise<void>;

  constructor(
    private readonly phase: string,
    private readonly perSecond: number,
    private readonly send: SendOne,
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    for (let seq = 0; this.running; seq++) {
      const marker = `${this.phase}-${seq}-${Date.now()}`;
      const one = this.sendUntilAccepted(marker, seq).finally(() => this.inFlight.delete(one));
      this.inFlight.add(one);
      await sleep(1000 / this.perSecond);
    }
  }

  private async sendUntilAccepted(marker: string, seq: number): Promise<void> {
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

  /** Stops sending, then waits up to `drainTimeoutMs` for every accepted event to arrive. */
  async stop(receiver: Receiver, drainTimeoutMs = 180_000): Promise<LoadReport> {
    this.running = false;
    await this.loop;
    await Promise.all(this.inFlight);
    const drainStart = Date.now();
    const arrivals = () => {
      const counts = new Map<string, number>();
      for (const r of receiver.requests) {
        const marker = (JSON.parse(r.body) as { marker?: string }).marker;
        if (marker?.startsWith(`${this.phase}-`)) counts.set(marker, (counts.get(marker) ?? 0) + 1);
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
      phase: this.phase,
      sent: this.accepted.length,
      delivered,
      lost: this.accepted.length - delivered,
      duplicated: [...counts.values()].reduce((sum, n) => sum + n - 1, 0),
      refusedThenRetried: this.refused,
      drainMs: Date.now() - drainStart,
    };
  }
}
