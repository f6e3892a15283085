/**
 * Which message keys of a topic this consumer group member owns now: those the producer's
 * partitioner puts on a partition of the member's last assignment; none while a rebalance is under
 * way. Work a process may do itself instead of publishing it (it would come back to this very
 * process) asks here first.
 */
export class KeyOwnership {
  private assigned: ReadonlySet<number> = new Set();

  constructor(private readonly partitionOf: (key: string) => number) {}

  /** The group assigned these partitions (a join). */
  assign(partitions: readonly number[]): void {
    this.assigned = new Set(partitions);
  }

  /** A rebalance started: nothing is owned until the next assignment. */
  release(): void {
    this.assigned = new Set();
  }

  owns(key: string): boolean {
    return this.assigned.has(this.partitionOf(key));
  }
}
