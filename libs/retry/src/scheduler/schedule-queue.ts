/** An entry waiting in memory for its due time. */
export interface QueuedEntry<T = unknown> {
  id: string;
  /** What the entry sends again (`<kind>:<id>`): one live entry per key, the latest wins. */
  key: string;
  shard: string;
  dueMs: number;
  /** Insertion time: orders entries of the same key (a later retry message supersedes an earlier one). */
  createdMs: number;
  value: T;
}

export type AddOutcome<T> =
  { kind: 'queued'; superseded?: QueuedEntry<T> } | { kind: 'already_queued' } | { kind: 'stale' };

/**
 * The replica's in-memory due-time index: a binary min-heap by due time with one live entry per
 * key. Superseded entries stay in the heap until popped and are skipped then (lazy deletion).
 */
export class ScheduleQueue<T = unknown> {
  private heap: QueuedEntry<T>[] = [];
  private live = new Map<string, QueuedEntry<T>>();

  get size(): number {
    return this.live.size;
  }

  add(entry: QueuedEntry<T>): AddOutcome<T> {
    const current = this.live.get(entry.key);
    if (current?.id === entry.id) return { kind: 'already_queued' };
    if (current && isNewer(current, entry)) return { kind: 'stale' };
    this.live.set(entry.key, entry);
    this.push(entry);
    return current ? { kind: 'queued', superseded: current } : { kind: 'queued' };
  }

  /** Removes and returns up to `max` live entries due at or before `nowMs`, earliest first. */
  popDue(nowMs: number, max: number): QueuedEntry<T>[] {
    const due: QueuedEntry<T>[] = [];
    while (due.length < max && this.heap.length > 0 && this.heap[0].dueMs <= nowMs) {
      const top = this.pop();
      if (this.live.get(top.key) !== top) continue;
      this.live.delete(top.key);
      due.push(top);
    }
    return due;
  }

  nextDueMs(): number | undefined {
    while (this.heap.length > 0 && this.live.get(this.heap[0].key) !== this.heap[0]) this.pop();
    return this.heap[0]?.dueMs;
  }

  /** Drops every entry whose shard is no longer owned (after a rebalance). */
  retainShards(owned: (shard: string) => boolean): number {
    const before = this.live.size;
    for (const [key, e] of this.live) if (!owned(e.shard)) this.live.delete(key);
    this.heap = [];
    for (const e of this.live.values()) this.push(e);
    return before - this.live.size;
  }

  private push(e: QueuedEntry<T>): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].dueMs <= h[i].dueMs) break;
      [h[parent], h[i]] = [h[i], h[parent]];
      i = parent;
    }
  }

  private pop(): QueuedEntry<T> {
    const h = this.heap;
    const top = h[0];
    const last = h.pop() as QueuedEntry<T>;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l].dueMs < h[m].dueMs) m = l;
        if (r < h.length && h[r].dueMs < h[m].dueMs) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
}

function isNewer(a: QueuedEntry<unknown>, b: QueuedEntry<unknown>): boolean {
  return a.createdMs > b.createdMs || (a.createdMs === b.createdMs && a.id > b.id);
}
