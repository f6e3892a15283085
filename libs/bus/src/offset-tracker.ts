/**
 * The messages of one partition, started in offset order and finished in any order. The offset
 * that may be committed is the one after the longest finished prefix: committing it never skips
 * a message still being handled.
 */
export class OffsetTracker {
  private readonly started: string[] = [];
  private head = 0;
  private readonly finished = new Set<string>();

  start(offset: string): void {
    this.started.push(offset);
  }

  /** Marks `offset` finished; returns the next offset to commit when the finished prefix grew. */
  finish(offset: string): string | null {
    this.finished.add(offset);
    let last: string | null = null;
    while (this.head < this.started.length && this.finished.has(this.started[this.head])) {
      last = this.started[this.head];
      this.finished.delete(last);
      this.head++;
    }
    if (this.head > 1024) {
      this.started.splice(0, this.head);
      this.head = 0;
    }
    return last === null ? null : (BigInt(last) + 1n).toString();
  }

  /** Started and not yet part of the committed prefix. */
  get pending(): number {
    return this.started.length - this.head;
  }
}
