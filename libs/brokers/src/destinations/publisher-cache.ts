import { openAmqpPublisher } from './amqp.publisher';
import { describeDestination, type DestinationSettings } from './destination-settings';
import { openKafkaPublisher } from './kafka.publisher';
import { openPubSubPublisher } from './pubsub.publisher';
import {
  publishFailure,
  withTimeout,
  type DestinationMessage,
  type DestinationPublisher,
  type PublishResult,
} from './publisher';
import { openSqsPublisher } from './sqs.publisher';

/** A publisher unused this long is closed (its connection is not kept for an endpoint gone quiet). */
const IDLE_MS = 5 * 60_000;
const SWEEP_MS = 60_000;

interface Entry {
  version: string;
  opening: Promise<DestinationPublisher>;
  usedAt: number;
}

type Open = (d: DestinationSettings, timeoutMs: number) => Promise<DestinationPublisher>;

function openPublisher(d: DestinationSettings, timeoutMs: number): Promise<DestinationPublisher> {
  switch (d.kind) {
    case 'kafka':
      return openKafkaPublisher(d, timeoutMs);
    case 'amqp':
      return openAmqpPublisher(d, timeoutMs);
    case 'sqs':
      return openSqsPublisher(d, timeoutMs);
    case 'google_pubsub':
      return openPubSubPublisher(d, timeoutMs);
  }
}

/**
 * One open publisher per broker endpoint, reused by every delivery to it: keyed by endpoint id and
 * the version of its settings, so a changed destination closes the old connection and opens one
 * with the new settings. A publisher whose connection broke, or that could not open, is replaced
 * on the next publish: a broker that comes back is used again without a restart.
 */
export class DestinationPublishers {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  /** `open` and `now` are replaceable for the unit test of the cache's own rules. */
  constructor(
    private readonly open: Open = openPublisher,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** One publish, acknowledged or failed; never throws (opening failures are failed publishes). */
  async publish(
    endpointId: string,
    version: string,
    settings: DestinationSettings,
    m: DestinationMessage,
    timeoutMs: number,
  ): Promise<PublishResult> {
    let publisher: DestinationPublisher;
    try {
      publisher = await withTimeout(
        this.publisher(endpointId, version, settings, timeoutMs),
        timeoutMs,
        'opening',
      );
    } catch (err) {
      this.drop(endpointId, version);
      const failed = publishFailure(err, false);
      return failed.ok
        ? failed
        : { ...failed, message: `${describeDestination(settings)}: ${failed.message}` };
    }
    const result = await publisher.publish(m, timeoutMs);
    if (publisher.broken) this.drop(endpointId, version);
    return result;
  }

  private publisher(
    endpointId: string,
    version: string,
    settings: DestinationSettings,
    timeoutMs: number,
  ): Promise<DestinationPublisher> {
    const current = this.entries.get(endpointId);
    if (current?.version === version) {
      current.usedAt = this.now();
      return current.opening;
    }
    if (current) this.drop(endpointId, current.version);
    const opening = this.open(settings, timeoutMs);
    opening.catch(() => undefined);
    this.entries.set(endpointId, { version, opening, usedAt: this.now() });
    return opening;
  }

  /** Forgets (and closes) the endpoint's publisher of that version. */
  private drop(endpointId: string, version: string): void {
    const e = this.entries.get(endpointId);
    if (!e || e.version !== version) return;
    this.entries.delete(endpointId);
    void e.opening.then((p) => p.close()).catch(() => undefined);
  }

  /** Closes the publishers unused for IDLE_MS (run every minute). */
  closeIdle(): void {
    const before = this.now() - IDLE_MS;
    for (const [id, e] of this.entries) if (e.usedAt < before) this.drop(id, e.version);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.opening.then((p) => p.close()).catch(() => undefined)));
  }
}
