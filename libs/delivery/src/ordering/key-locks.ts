/** A place in one key's queue: `ready` when every earlier place was released. */
export interface Place {
  ready: Promise<void>;
  /** Idempotent. */
  release(): void;
}

/**
 * First-come first-served locks by key. A place is taken synchronously, so places follow the
 * order in which their callers started (a partition's order, for the consumer's messages), and
 * the work under one lasts a few database writes, never an HTTP request.
 */
export class KeyLocks {
  private readonly tails = new Map<string, Promise<void>>();

  take(key: string): Place {
    const earlier = this.tails.get(key) ?? Promise.resolve();
    let open!: () => void;
    const mine = new Promise<void>((resolve) => (open = resolve));
    const tail = earlier.then(() => mine);
    this.tails.set(key, tail);
    let released = false;
    return {
      ready: earlier,
      release: () => {
        if (released) return;
        released = true;
        open();
        void tail.then(() => {
          if (this.tails.get(key) === tail) this.tails.delete(key);
        });
      },
    };
  }

  /** Runs `work` in a place taken now. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const place = this.take(key);
    try {
      await place.ready;
      return await work();
    } finally {
      place.release();
    }
  }
}
