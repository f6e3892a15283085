import type { Logger } from '@hookrail/telemetry';
import pTimeout from 'p-timeout';

/** One message as the ingest rules see it. */
export interface Delivery {
  /** Message attributes / headers, lower-case names, string values. */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * What to do with a message after handling it: `ack` once Kafka holds its event, `retry` when a
 * dependency is down (the broker delivers it again), `reject` when it can never succeed.
 */
export type Verdict =
  { kind: 'ack' } | { kind: 'retry'; reason: string } | { kind: 'reject'; reason: string };

export type DeliveryHandler = (d: Delivery) => Promise<Verdict>;

/** How a rejected message left the queue. */
export type Disposal = 'dead_lettered' | 'dropped';

export type SubscriberState = 'connecting' | 'consuming' | 'unreachable';

export interface SubscriberOptions {
  workers: number;
  /** Messages in flight per worker (prefetch / flow control). */
  prefetch: number;
  handle: DeliveryHandler;
  onState(state: SubscriberState, error?: string): void;
  onRejected(reason: string, disposal: Disposal): void;
  logger: Logger;
}

/** A running subscriber: reconnects by itself until stopped. */
export interface Subscriber {
  /** Stops intake, lets handlers in flight finish (acking what Kafka took), closes the connection. */
  stop(): Promise<void>;
}

/** One connection's life: consuming until `closed` settles (connection lost) or `close` is called. */
export interface Session {
  /** Resolves (with the reason) when the connection is lost by itself. */
  closed: Promise<Error | undefined>;
  close(): Promise<void>;
}

/** Stringifies header values of any broker (Buffers, numbers, booleans). */
export function headerValues(input: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input ?? {})) {
    if (v === undefined || v === null) continue;
    out[k.toLowerCase()] = Buffer.isBuffer(v)
      ? v.toString('utf8')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
  }
  return out;
}

/** Counts handlers in flight so a stop can wait for them. */
export class InFlight {
  private n = 0;
  private waiters: (() => void)[] = [];

  track<T>(p: Promise<T>): Promise<T> {
    this.n++;
    return p.finally(() => {
      if (--this.n === 0) this.waiters.splice(0).forEach((w) => w());
    });
  }

  get size(): number {
    return this.n;
  }

  /** Resolves when nothing is in flight, or after `timeoutMs`. */
  async idle(timeoutMs: number): Promise<void> {
    if (this.n === 0) return;
    await pTimeout(new Promise<void>((r) => this.waiters.push(r)), {
      milliseconds: timeoutMs,
      message: false,
    });
  }
}
