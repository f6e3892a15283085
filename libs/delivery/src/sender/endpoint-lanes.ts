import { boundedLru } from '@hookrail/toolbox';

export interface EndpointLanesOptions {
  /** Attempts one endpoint may have waiting for an answer at once in this process. */
  perEndpoint: number;
  /**
   * Deliveries that may wait in memory for a slot, any endpoint, out of their caller's window
   * (`acquire`'s `leaveWindow`): they wait as long as it takes; beyond this many they are parked.
   * Default: none wait, every delivery over a cap is parked.
   */
  maxDetached?: number;
  /** The same for an endpoint in the slow lane. */
  slowPerEndpoint: number;
  /**
   * Attempts all endpoints of the slow lane together may have waiting at once in this process;
   * as many again for the new lane (endpoints not yet seen answering fast).
   */
  slowLane: number;
  /**
   * First attempts ("probes") to endpoints not yet seen answering, one per endpoint at a time,
   * outside the new lane's shared cap: a new endpoint that answers is not kept waiting behind new
   * endpoints that hang. At most this many at once in the process. Default: none.
   */
  probeLane?: number;
  /** An attempt running this long, or that took this long, puts its endpoint in the slow lane. */
  slowMs: number;
  /** How long a slow attempt keeps its endpoint in the slow lane without a fast one since. */
  rememberMs?: number;
  now?: () => number;
  /** [0, 1), for the jitter of the parking delay. */
  random?: () => number;
}

/**
 * `fast`: the endpoint's last answer was fast; `slow`: it is slow (see EndpointLanes); `new`:
 * neither is known yet (a first delivery, or one forgotten); `probe`: a new endpoint's one attempt
 * outside the new lane's cap.
 */
export type Lane = 'fast' | 'probe' | 'new' | 'slow';
/** The lanes with a cap shared by all their endpoints. */
type SharedLane = Exclude<Lane, 'fast'>;

/** A slot taken: `ended` when the attempt has its answer (measured), `release` in any case (idempotent). */
export interface LaneSlot {
  lane: Lane;
  ended(): void;
  release(): void;
}

/** No slot: the delivery is parked for `delayMs` (not an attempt, no retry spent). */
export interface LaneFull {
  lane: Lane;
  delayMs: number;
  detail: string;
}

/** One endpoint's running attempts by slot: when each started and the lane it counts in. */
type Running = Map<symbol, { start: number; lane: Lane }>;

const MIN_PARK_MS = 1000;
const MAX_PARK_MS = 30_000;
/** A delivery waiting (out of its caller's window) for a slot, as long as it takes. */
type Waiter = (slot: LaneSlot) => void;

/** Endpoints whose speed is remembered; an endpoint forgotten starts again in the new lane. */
const REMEMBERED_ENDPOINTS = 50_000;

/**
 * Per-endpoint concurrency with lanes, so that endpoints which hang or answer slowly cannot take
 * what the others need (the deliveries consumer's in-flight window, the router's local slots):
 * each endpoint has at most `perEndpoint` attempts waiting for an answer; an endpoint whose oldest
 * running attempt, or a recent finished one, took `slowMs` or more is in the slow lane, where it
 * has at most `slowPerEndpoint`, and all slow endpoints together `slowLane`. New endpoints (not
 * yet seen answering: a thousand endpoints that start hanging at once are all new) have
 * `slowLane` more together, plus one probe each outside that cap, `probeLane` in all; an attempt
 * counts in the lane it was taken in until it ends, so endpoints that are slow or new never hold
 * more than 2 x `slowLane` + `probeLane` attempts. A delivery over its cap waits here, out of its
 * caller's window, up to `maxDetached` in all; beyond, the caller parks it for about as long as
 * its endpoint takes to answer.
 */
export class EndpointLanes {
  /** Running attempts per endpoint, oldest first (Map keeps insertion order). */
  private readonly running = new Map<string, Running>();
  /** Endpoints seen slow lately: when their last slow attempt ended, and how long it took. */
  private readonly slowSeen = boundedLru<string, { at: number; tookMs: number }>(REMEMBERED_ENDPOINTS);
  /** Endpoints whose last answer was fast. */
  private readonly fastSeen = boundedLru<string, true>(REMEMBERED_ENDPOINTS);
  /** Deliveries waiting for a slot, by endpoint, first come first served. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Deliveries waiting, every endpoint. */
  private detached = 0;
  /** Attempts running in the lanes with a shared cap. */
  private readonly shared: Record<SharedLane, number> = { probe: 0, new: 0, slow: 0 };
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly opts: EndpointLanesOptions) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  /**
   * A slot for one attempt to `endpointId`, or how long to park the delivery. Over its cap a
   * delivery waits in memory for a slot as long as its endpoint takes, having left its caller's
   * window (`leaveWindow`, which other endpoints' deliveries need; a caller holding no window
   * passes none), up to maxDetached waiting in all; parked beyond (parking costs a write and a
   * round through the retry scheduler, again each time the delivery finds its endpoint still bad).
   */
  acquire(endpointId: string, leaveWindow?: () => void): LaneSlot | LaneFull | Promise<LaneSlot> {
    const taken = this.take(endpointId);
    if ('release' in taken || this.detached >= (this.opts.maxDetached ?? 0)) return taken;
    leaveWindow?.();
    const queue = this.waiting.get(endpointId) ?? [];
    this.waiting.set(endpointId, queue);
    this.detached++;
    return new Promise((resolve) =>
      queue.push((slot) => {
        this.detached--;
        resolve(slot);
      }),
    );
  }

  /** A slot for one attempt to `endpointId` at once, or how long to park the delivery. */
  take(endpointId: string): LaneSlot | LaneFull {
    const now = this.now();
    const mine = this.running.get(endpointId);
    const lane = this.laneOf(endpointId, mine, now);
    const cap = lane === 'slow' ? this.opts.slowPerEndpoint : this.opts.perEndpoint;
    if ((mine?.size ?? 0) >= cap)
      return this.full(
        lane,
        endpointId,
        mine,
        `endpoint at its cap of ${cap} attempts waiting for an answer`,
      );
    if (lane === 'new' && this.mayProbe(mine)) return this.slot(endpointId, 'probe', now);
    if (lane !== 'fast' && this.shared[lane] >= this.opts.slowLane)
      return this.full(lane, endpointId, mine, `${lane} lane full (${this.opts.slowLane} attempts)`);
    return this.slot(endpointId, lane, now);
  }

  /** A new endpoint's probe: none of its own running, and the probe lane not full. */
  private mayProbe(mine: Running | undefined): boolean {
    if (this.shared.probe >= (this.opts.probeLane ?? 0)) return false;
    for (const attempt of mine?.values() ?? []) if (attempt.lane === 'probe') return false;
    return true;
  }

  /** Attempts running now: in all, and in the lanes with a shared cap; deliveries waiting (gauges). */
  counts(): { running: number; probe: number; new: number; slow: number; detached: number } {
    let running = 0;
    for (const m of this.running.values()) running += m.size;
    return { running, ...this.shared, detached: this.detached };
  }

  private laneOf(endpointId: string, mine: Running | undefined, now: number): Exclude<Lane, 'probe'> {
    const oldest = mine?.values().next().value?.start;
    if (oldest !== undefined && now - oldest >= this.opts.slowMs) return 'slow';
    const seen = this.slowSeen.get(endpointId);
    if (seen !== undefined && now - seen.at < (this.opts.rememberMs ?? 60_000)) return 'slow';
    return this.fastSeen.has(endpointId) ? 'fast' : 'new';
  }

  private slot(endpointId: string, lane: Lane, start: number): LaneSlot {
    const token = Symbol();
    let mine = this.running.get(endpointId);
    if (!mine) this.running.set(endpointId, (mine = new Map()));
    mine.set(token, { start, lane });
    if (lane !== 'fast') this.shared[lane]++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      if (lane !== 'fast') this.shared[lane]--;
      mine.delete(token);
      if (mine.size === 0 && this.running.get(endpointId) === mine) this.running.delete(endpointId);
      this.handOver(endpointId, lane !== 'fast');
    };
    const ended = () => {
      if (held) this.measured(endpointId, this.now() - start);
      release();
    };
    return { lane, ended, release };
  }

  /**
   * A released slot goes to the endpoint's longest waiter. A slot of a lane with a shared cap
   * released may also be what another endpoint's waiters wait for: they get their turn too.
   */
  private handOver(endpointId: string, sharedLane: boolean): void {
    this.serve(endpointId);
    if (!sharedLane) return;
    for (const other of [...this.waiting.keys()]) if (other !== endpointId && !this.serve(other)) break;
  }

  /** Gives `endpointId`'s waiters the slots it can take now; false when a shared lane is full. */
  private serve(endpointId: string): boolean {
    const queue = this.waiting.get(endpointId);
    while (queue?.length) {
      const next = this.take(endpointId);
      if (!('release' in next)) return next.lane === 'fast' || this.shared[next.lane] < this.opts.slowLane;
      queue.shift()!(next);
    }
    if (queue && this.waiting.get(endpointId) === queue) this.waiting.delete(endpointId);
    return true;
  }

  /** A slow answer (or a time-out) keeps the endpoint in the slow lane; a fast one lets it out. */
  private measured(endpointId: string, tookMs: number): void {
    if (tookMs >= this.opts.slowMs) {
      this.slowSeen.set(endpointId, { at: this.now(), tookMs });
      this.fastSeen.delete(endpointId);
    } else {
      this.slowSeen.delete(endpointId);
      this.fastSeen.set(endpointId, true);
    }
  }

  /**
   * Parked for about as long as the endpoint takes to answer (its oldest running attempt's age, or
   * its last slow attempt), within [1 s, 30 s], plus up to a quarter more so parked deliveries
   * do not all come back at once.
   */
  private full(lane: Lane, endpointId: string, mine: Running | undefined, detail: string): LaneFull {
    const now = this.now();
    const oldest = mine?.values().next().value?.start;
    const typical = Math.max(
      oldest === undefined ? 0 : now - oldest,
      this.slowSeen.get(endpointId)?.tookMs ?? 0,
    );
    const base = Math.min(MAX_PARK_MS, Math.max(MIN_PARK_MS, typical));
    return { lane, delayMs: Math.round(base * (1 + this.random() / 4)), detail };
  }
}
