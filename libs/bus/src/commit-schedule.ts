import type { Consumer } from 'kafkajs';
import type { Logger } from '@hookrail/telemetry';
import { errorMessage } from '@hookrail/domain';

/** How often finished offsets are committed. */
const COMMIT_INTERVAL_MS = 50;

/** The offsets to commit per partition, committed together a moment after the first is set. */
export class CommitSchedule {
  private readonly toCommit = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly topic: string,
    private readonly logger: Logger,
  ) {}

  set(partition: number, offset: string): void {
    this.toCommit.set(partition, offset);
    this.timer ??= setTimeout(() => void this.commit(), COMMIT_INTERVAL_MS);
  }

  /** A rebalance: the old generation's offsets are not this member's to commit. */
  clear(): void {
    this.toCommit.clear();
  }

  /** Commits now (a graceful stop). A failed commit is logged: the messages come again. */
  async commit(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.toCommit.size === 0) return;
    const offsets = [...this.toCommit].map(([partition, offset]) => ({
      topic: this.topic,
      partition,
      offset,
    }));
    this.toCommit.clear();
    await this.consumer.commitOffsets(offsets).catch((err: unknown) => {
      this.logger.warn({ err, topic: this.topic }, `offset commit failed: ${errorMessage(err)}`);
    });
  }
}
