import pTimeout from 'p-timeout';

/** One message of a delivery attempt, as every broker kind publishes it. */
export interface DestinationMessage {
  body: Buffer;
  /** The signature and `X-Hookrail-*` headers, as the HTTP request would carry them. */
  headers: Record<string, string>;
  /** The event id: Kafka key, SQS FIFO message group, Pub/Sub ordering key (when ordering is on). */
  key: string;
  /** The delivery id: SQS FIFO deduplication id, AMQP message id. */
  deliveryId: string;
}

/**
 * A publish ends acknowledged by the broker (`messageId` is what the broker named it) or failed;
 * `maybeReached` is false only when the message certainly never reached the broker.
 */
export type PublishResult =
  { ok: true; messageId: string } | { ok: false; code: string; message: string; maybeReached: boolean };

export interface DestinationPublisher {
  publish(m: DestinationMessage, timeoutMs: number): Promise<PublishResult>;
  /** True once its connection is gone for good: the cache opens a new one for the next publish. */
  readonly broken?: boolean;
  close(): Promise<void>;
}

/** An error as a failed publish: connection failures certainly sent nothing. */
export function publishFailure(err: unknown, maybeReached: boolean): PublishResult {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'EPUBLISH';
  return { ok: false, code, message: String(e?.message ?? err), maybeReached };
}

export class PublishTimeoutError extends Error {
  override readonly name = 'PublishTimeoutError';
  readonly code = 'ETIMEDOUT';
}

/** `work` or a timeout error after `ms` (the publish itself may still complete: maybe reached). */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return pTimeout(work, {
    milliseconds: ms,
    fallback: () => {
      throw new PublishTimeoutError(`${what}: no acknowledgement within ${ms} ms`);
    },
  });
}
