import { boundedLru } from '@hookrail/toolbox';

export interface EndpointLanesOptions {
  /** Attempts one endpoint may have waiting for an answer at once in this process. */
  perEndpoint: number;
  /**
   * Deliveries that may wait in memory for a slot of one endpoint not known to be slow while
   * holding their caller's place (each for at most slowMs); beyond that they are parked.
   * Default: perEndpoint.
   */
  waitPerEndpoint?: number;
  /**
   * Deliveries that may wait in memory for a slot, any endpoint, having left their caller's window
   * (`acquire`'s `leaveWindow`): they wait as long as it takes; beyond this many they are parked.
   * Default: none wait that way.
   */
  maxDetached?: number;
  /** The same for an endpoint in the slow lane. */
  slowPerEndpoint: number;
  /**
   * Attempts all endpoints of the slow lane together may have waiting at once in this process;
   * as many again for the new lane (endpoints not yet seen answering fast).
   */
  slowLane: number;
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
 * neither is known yet (a first delivery, or one forgotten).
 */
export type Lane = 'fast' | 'new' | 'slow';

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
/**
 * A delivery waiting for a slot: `detached` ones left their caller's window and wait as long as it
 * takes; the others hold it, so they wait at most slowMs and are parked once the endpoint is slow.
 */
interface Waiter {
  detached: boolean;
  answer: (r: LaneSlot | LaneFull) => void;
}

/** Endpoints whose speed is remembered; an endpoint forgotten starts again in the new lane. */
const REMEMBERED_ENDPOINTS = 50_000;

/**
 * Per-endpoint concurrency with two lanes, so that endpoints which hang or answer slowly cannot
 * take what the others need (the deliveries consumer's in-flight window, the router's local
 * slots): each endpoint has at most `perEndpoint` attempts waiting for an answer; an endpoint
 * whose oldest running attempt, or a recent finished one, took `slowMs` or more is in the slow
 * lane, where it has at most `slowPerEndpoint`, and all slow endpoints together `slowLane`. New
 * endpoints (not yet seen answering fast: a thousand endpoints that start hanging at once are all
 * new) have `slowLane` more together; an attempt counts in the lane it was taken in until it
 * ends, so endpoints that are slow or new never hold more than 2 x `slowLane` attempts.
 * A delivery over its cap is not queued here (a queue would hold the same window): the caller
 * parks it for about as long as its endpoint takes to answer.
 */
export class EndpointLanes {
  /** Running attempts per endpoint, oldest first (Map keeps insertion order). */
  private readonly running = new Map<string, Running>();
  /** Endpoints seen slow lately: when their last slow attempt ended, and how long it took. */
  private readonly slowSeen = boundedLru<string, { at: number; tookMs: number }>(REMEMBERED_ENDPOINTS);
  /** Endpoints whose last answer was fast. */
  private readonly fastSeen = boundedLru<string, true>(REMEMBERED_ENDPOINTS);
  /** Deliveries waiting for a fast endpoint's slot, at most perEndpoint per endpoint. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Waiters that left their caller's window, every endpoint. */
  private detached = 0;
  /** Attempts running in the new and slow lanes. */
  private readonly shared = { new: 0, slow: 0 };
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly opts: EndpointLanesOptions) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  /**
   * A slot for one attempt to `endpointId`, or how long to park the delivery. Over its cap a
   * delivery waits in memory rather than being parked (parking costs a write and a round through
   * the retry scheduler: a burst to one healthy endpoint must not take that path, nor the steady
   * excess towards a hanging one):
   * - given `leaveWindow`, it leaves its caller's window (which other endpoints' deliveries need)
   *   and waits as long as its endpoint takes, up to maxDetached waiting that way in all;
   * - otherwise, for an endpoint not known to be slow, it waits holding its place, up to
   *   waitPerEndpoint, each at most slowMs, and is parked as soon as the endpoint is seen slow.
   * Parked otherwise.
   */
  acquire(endpointId: string, leaveWindow?: () => void): LaneSlot | LaneFull | Promise<LaneSlot | LaneFull> {
    const taken = this.take(endpointId);
    if ('release' in taken) return taken;
    const queue = this.waiting.get(endpointId) ?? [];
    if (leaveWindow && this.detached < (this.opts.maxDetached ?? 0)) {
      leaveWindow();
      return this.wait(endpointId, queue, true);
    }
    if (taken.lane === 'slow') {
      this.parkHolding(endpointId, taken);
      return taken;
    }
    if (queue.filter((w) => !w.detached).length >= (this.opts.waitPerEndpoint ?? this.opts.perEndpoint))
      return taken;
    return this.wait(endpointId, queue, false);
  }

  private wait(endpointId: string, queue: Waiter[], detached: boolean): Promise<LaneSlot | LaneFull> {
    this.waiting.set(endpointId, queue);
    if (detached) this.detached++;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        detached,
        answer: (r) => {
          clearTimeout(timer);
          if (detached) this.detached--;
          resolve(r);
        },
      };
      // A waiter holding its caller's place gives up after slowMs: the endpoint stopped answering.
      const timer = detached
        ? undefined
        : setTimeout(() => {
            const at = queue.indexOf(waiter);
            if (at < 0) return;
            queue.splice(at, 1);
            if (queue.length === 0 && this.waiting.get(endpointId) === queue) this.waiting.delete(endpointId);
            resolve(this.take(endpointId));
          }, this.opts.slowMs);
      timer?.unref();
      queue.push(waiter);
    });
  }

  /** Parks the waiters of `endpointId` that hold their caller's place; detached ones wait on. */
  private parkHolding(endpointId: string, full: LaneFull): void {
    const queue = this.waiting.get(endpointId);
    if (!queue) return;
    const holding = queue.filter((w) => !w.detached);
    if (holding.length === 0) return;
    const rest = queue.filter((w) => w.detached);
    if (rest.length) this.waiting.set(endpointId, rest);
    else this.waiting.delete(endpointId);
    for (const w of holding) w.answer(full);
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
    if (lane !== 'fast' && this.shared[lane] >= this.opts.slowLane)
      return this.full(lane, endpointId, mine, `${lane} lane full (${this.opts.slowLane} attempts)`);
    return this.slot(endpointId, lane, now);
  }

  /** Attempts running now: in all, and in the new and slow lanes; deliveries waiting detached (gauges). */
  counts(): { running: number; new: number; slow: number; detached: number } {
    let running = 0;
    for (const m of this.running.values()) running += m.size;
    return { running, ...this.shared, detached: this.detached };
  }

  private laneOf(endpointId: string, mine: Running | undefined, now: number): Lane {
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
    const attempt = { start, lane };
    mine.set(token, attempt);
    if (attempt.lane !== 'fast') this.shared[attempt.lane]++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      if (attempt.lane !== 'fast') this.shared[attempt.lane]--;
      mine.delete(token);
      if (mine.size === 0 && this.running.get(endpointId) === mine) this.running.delete(endpointId);
      this.handOver(endpointId, attempt.lane !== 'fast');
    };
    const ended = () => {
      if (held) this.measured(endpointId, this.now() - start);
      release();
    };
    return { lane, ended, release };
  }

  /**
   * A released slot goes to the endpoint's longest waiter; once it is slow, the waiters holding
   * their caller's place are parked. A slot of the new or slow lane released may also be what
   * another endpoint's waiters wait for (the lane's shared cap): they get their turn too.
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
      if (!('release' in next)) {
        if (next.lane === 'slow') this.parkHolding(endpointId, next);
        return next.lane === 'fast' || this.shared[next.lane] < this.opts.slowLane;
      }
      queue.shift()!.answer(next);
    }
    if (queue && queue.length === 0 && this.waiting.get(endpointId) === queue)
      this.waiting.delete(endpointId);
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
