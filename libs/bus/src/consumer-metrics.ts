import type { Metrics } from '@hookrail/telemetry';

export type Outcome = 'ok' | 'retry' | 'skipped' | 'dead_lettered' | 'barrier';

/** A consumer's counters, handler timing and per-partition lag, for one topic. */
export class ConsumerMetrics {
  private readonly handled;
  private readonly duration;
  private readonly deadLetters;
  private readonly lag;
  private readonly age;
  /** Per partition: the high watermark of the newest batch, and the next offset to commit. */
  private readonly positions = new Map<number, { highWatermark: number; next: number | null }>();

  constructor(
    metrics: Metrics,
    private readonly topic: string,
  ) {
    this.handled = metrics.counter('hookrail_bus_messages_total', 'Messages consumed, by outcome', [
      'topic',
      'outcome',
    ]);
    this.duration = metrics.histogram('hookrail_bus_handler_duration_seconds', 'Handler time per message', [
      'topic',
    ]);
    this.age = metrics.histogram(
      'hookrail_bus_message_age_seconds',
      "A message's age when its handler starts: from its producer's timestamp, so the wait in Kafka and in this consumer's fetch loop",
      ['topic'],
      [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    );
    this.deadLetters = metrics.counter(
      'hookrail_dead_letters_total',
      'Messages a consumer gave up on and dead-lettered',
      ['topic'],
    );
    this.lag = metrics.gauge(
      'hookrail_kafka_consumer_lag',
      "Messages of a partition not yet finished by this consumer: the partition's high watermark minus the next offset to commit",
      ['topic', 'partition'],
    );
  }

  count(outcome: Outcome): void {
    this.handled.inc({ topic: this.topic, outcome });
    if (outcome === 'dead_lettered') this.deadLetters.inc({ topic: this.topic });
  }

  /** `producedAt`: the message's timestamp (milliseconds since the epoch, the producer's clock). */
  started(producedAt: number): void {
    this.age.observe({ topic: this.topic }, Math.max(0, Date.now() - producedAt) / 1000);
  }

  timeHandler(): () => void {
    return this.duration.startTimer({ topic: this.topic });
  }

  /** A batch arrived: until something finishes here, its first offset is the next to commit. */
  batchSeen(partition: number, highWatermark: number, firstOffset: number): void {
    const p = this.positions.get(partition);
    if (p) p.highWatermark = highWatermark;
    else this.positions.set(partition, { highWatermark, next: firstOffset });
    this.showLag(partition);
  }

  /** The partition's finished prefix grew: `next` is the next offset to commit. */
  finishedUpTo(partition: number, next: number): void {
    const p = this.positions.get(partition);
    if (p) p.next = next;
    this.showLag(partition);
  }

  /** A rebalance: this member's partitions are about to change. */
  reset(): void {
    this.positions.clear();
    this.lag.reset();
  }

  private showLag(partition: number): void {
    const p = this.positions.get(partition);
    if (p && p.next !== null)
      this.lag.set(
        { topic: this.topic, partition: String(partition) },
        Math.max(0, p.highWatermark - p.next),
      );
  }
}
