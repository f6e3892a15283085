import { backoffMs } from '@hookrail/toolbox';

/** Where the producer's partitioner puts a message key on a topic, for the topic as it is now. */
export type Partitioner = (key: string) => number;

/**
 * Which message keys of a topic this consumer group member owns now: those the producer's
 * partitioner puts on a partition of the member's last assignment; none while a rebalance is under
 * way. Work a process may do itself instead of publishing it (it would come back to this very
 * process) asks here first.
 *
 * The topic's partitions are read again at every assignment: partitions added to a topic make the
 * group rejoin, and a count read once at start would then put keys on other partitions than the
 * producers do, for as long as the process lives.
 */
export class KeyOwnership {
  private assigned: ReadonlySet<number> = new Set();
  private partitionOf?: Partitioner;
  private generation = 0;

  /** `readPartitioner` reads the topic's partitions (Bus.partitioner). */
  constructor(
    private readonly readPartitioner: () => Promise<Partitioner>,
    private readonly opts: {
      onReadError?: (err: unknown, attempt: number) => void;
      retryMaxMs?: number;
    } = {},
  ) {}

  /**
   * The group assigned these partitions (a join). Resolves once they are owned, or as soon as a
   * newer rebalance makes them moot. Until the topic's partitions are read nothing is owned; a
   * failed read is retried, keeping the last partitioner read meanwhile if there is one.
   */
  async assign(partitions: readonly number[]): Promise<void> {
    const generation = ++this.generation;
    this.assigned = new Set();
    for (let attempt = 0; ; attempt++) {
      try {
        const partitionOf = await this.readPartitioner();
        if (generation !== this.generation) return;
        this.partitionOf = partitionOf;
        this.assigned = new Set(partitions);
        return;
      } catch (err) {
        if (generation !== this.generation) return;
        this.opts.onReadError?.(err, attempt);
        if (this.partitionOf) this.assigned = new Set(partitions);
        await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: this.opts.retryMaxMs ?? 5000 })));
        if (generation !== this.generation) return;
      }
    }
  }

  /** A rebalance started: nothing is owned until the next assignment. */
  release(): void {
    this.generation++;
    this.assigned = new Set();
  }

  owns(key: string): boolean {
    return this.partitionOf !== undefined && this.assigned.has(this.partitionOf(key));
  }
}
