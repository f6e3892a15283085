import { DomainError, newId } from '@hookrail/domain';
import {
  NO_LISTENER_MESSAGE,
  type ListenAnswerBody,
  type ListenDeliveryEvent,
  type RelayAnswer,
  type RelayRequestBody,
} from '@hookrail/api-contract';

/** One connected `hookrail listen`: where its stream's events are written. */
export interface ListenerStream {
  send(event: 'delivery', data: ListenDeliveryEvent): void;
  /** Ends the stream (the gateway stops: the CLI reconnects to another replica or after the restart). */
  close(): void;
}

interface Pending {
  key: string;
  resolve: (answer: RelayAnswer) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

const keyOf = (projectId: string, endpointId: string) => `${projectId}/${endpointId}`;

/** The relay's refusal when nobody listens: the dispatcher holds the delivery (docs/cli.md). */
const noListener = (endpointId: string) =>
  new DomainError('unavailable', `${NO_LISTENER_MESSAGE} for endpoint ${endpointId}`);

/**
 * The `cli` endpoints' listeners connected to this gateway and the requests they have not answered
 * yet. The newest stream of an endpoint gets its deliveries (a second `hookrail listen` takes over;
 * the older one stays connected and gets them again once the newer one leaves).
 */
export class Listeners {
  private readonly streams = new Map<string, ListenerStream[]>();
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  /** Registers a stream; the returned function removes it (the connection closed). */
  add(projectId: string, endpointId: string, stream: ListenerStream): () => void {
    if (this.closed) {
      // a stopping gateway: the CLI tries again, and reaches another replica or the restarted one
      stream.close();
      return () => undefined;
    }
    const key = keyOf(projectId, endpointId);
    this.streams.set(key, [...(this.streams.get(key) ?? []), stream]);
    return () => {
      const left = (this.streams.get(key) ?? []).filter((s) => s !== stream);
      if (left.length > 0) this.streams.set(key, left);
      else this.streams.delete(key);
    };
  }

  has(projectId: string, endpointId: string): boolean {
    return this.streams.has(keyOf(projectId, endpointId));
  }

  /** False once the gateway is stopping: new streams are refused (503), the CLI retries. */
  get accepting(): boolean {
    return !this.closed;
  }

  /** The gateway stops: every stream ends and every waiting attempt fails now (it is retried). */
  closeAll(): void {
    this.closed = true;
    for (const list of this.streams.values()) for (const s of list) s.close();
    this.streams.clear();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new DomainError('unavailable', 'the gateway holding the hookrail listen stopped'));
      this.pending.delete(id);
    }
  }

  /** How many streams are open (a gauge). */
  get size(): number {
    let n = 0;
    for (const list of this.streams.values()) n += list.length;
    return n;
  }

  /**
   * Hands one signed request to the endpoint's newest listener and waits for its answer, at most
   * `timeout_ms`: 503 when no listener is connected here, 504-like 503 when it does not answer.
   */
  relay(projectId: string, endpointId: string, request: RelayRequestBody): Promise<RelayAnswer> {
    const key = keyOf(projectId, endpointId);
    const stream = this.streams.get(key)?.at(-1);
    if (!stream) return Promise.reject(noListener(endpointId));
    const requestId = newId();
    return new Promise<RelayAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(
          new DomainError(
            'unavailable',
            `the hookrail listen of endpoint ${endpointId} did not answer in ${Math.round(request.timeout_ms / 1000)} s`,
          ),
        );
      }, request.timeout_ms);
      this.pending.set(requestId, { key, resolve, reject, timer });
      stream.send('delivery', { request_id: requestId, method: 'POST', ...request });
    });
  }

  /** A listener's answer; false when nothing waits for it here (timed out, or another endpoint's). */
  answer(projectId: string, endpointId: string, body: ListenAnswerBody): boolean {
    const waiting = this.pending.get(body.request_id);
    if (!waiting || waiting.key !== keyOf(projectId, endpointId)) return false;
    clearTimeout(waiting.timer);
    this.pending.delete(body.request_id);
    waiting.resolve({
      url: body.url,
      status: body.status ?? null,
      headers: body.headers ?? {},
      body: body.body ?? '',
      latency_ms: body.latency_ms,
      error: body.error ?? null,
    });
    return true;
  }
}
