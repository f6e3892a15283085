/**
 * The times of the last `capacity` events, oldest first (a ring buffer). "At most N in any window"
 * is exact with it: the (N+1)-th event may happen once the oldest of the last N left the window.
 */
export class SlidingLog {
  private readonly times: number[];
  private start = 0;
  private length = 0;

  constructor(readonly capacity: number) {
    this.times = new Array<number>(Math.max(1, capacity));
  }

  get full(): boolean {
    return this.length >= this.capacity;
  }

  /** The oldest of the last `capacity` events. */
  oldest(): number | undefined {
    return this.length === 0 ? undefined : this.times[this.start];
  }

  push(t: number): void {
    if (this.length < this.capacity) {
      this.times[(this.start + this.length) % this.capacity] = t;
      this.length++;
    } else {
      this.times[this.start] = t;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  clear(): void {
    this.start = 0;
    this.length = 0;
  }
}
