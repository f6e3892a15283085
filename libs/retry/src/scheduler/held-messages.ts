/**
 * Retry messages whose entries wait in memory only (never written to MongoDB): each one's handler
 * stays pending until its entry is fired or no longer needed, so the message's offset, which is
 * the entry's durability, is committed only then. A message delivered again while its entry waits
 * (a rebalance that kept the partition) waits for the same entry.
 */
export class HeldMessages {
  private readonly waiting = new Map<string, { shard: string; done: Promise<void>; release: () => void }>();

  get size(): number {
    return this.waiting.size;
  }

  has(id: string): boolean {
    return this.waiting.has(id);
  }

  /** Resolves once `release(id)` is called; a second wait for the same id shares the first. */
  wait(id: string, shard: string): Promise<void> {
    const current = this.waiting.get(id);
    if (current) return current.done;
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    this.waiting.set(id, { shard, done, release });
    return done;
  }

  /** The entry was fired, or another entry for its target covers it. Returns whether it was held. */
  release(id: string): boolean {
    const held = this.waiting.get(id);
    if (!held) return false;
    this.waiting.delete(id);
    held.release();
    return true;
  }

  /**
   * After a rebalance: the messages of partitions no longer owned end here without their offsets
   * being committed (their generation is over), so the new owner reads them again.
   */
  releaseUnowned(owned: (shard: string) => boolean): void {
    for (const [id, held] of this.waiting) if (!owned(held.shard)) this.release(id);
  }
}
