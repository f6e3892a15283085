import pLimit from 'p-limit';
import { Coalescer, RECORD_WRITES } from './coalescer';

const tick = () => new Promise((r) => setImmediate(r));
/** Ends the oldest write still running and lets the coalescers take their next turns. */
const endOldestWrite = async (release: (() => void)[]) => {
  release.shift()!();
  await tick();
  await tick();
};

describe('Coalescer (group commit)', () => {
  it('writes the items of one turn together and gives each caller its own result', async () => {
    const writes: number[][] = [];
    const c = new Coalescer<number, string>(async (items) => {
      writes.push(items);
      return items.map((i) => `r${i}`);
    });
    const results = await Promise.all([1, 2, 3].map((i) => c.submit(i)));
    expect(writes).toEqual([[1, 2, 3]]);
    expect(results).toEqual(['r1', 'r2', 'r3']);
  });

  it('gathers items submitted while writes are in flight into the next write, at most maxInFlight at a time', async () => {
    const writes: number[][] = [];
    const release: (() => void)[] = [];
    const c = new Coalescer<number>(
      (items) => {
        writes.push(items);
        return new Promise<void>((r) => release.push(r));
      },
      { maxInFlight: 1 },
    );
    const first = c.submit(1);
    await tick();
    const later = [2, 3, 4].map((i) => c.submit(i));
    await tick();
    expect(writes).toEqual([[1]]); // one in flight: the others wait together
    release.shift()!();
    await first;
    await tick();
    await tick();
    expect(writes).toEqual([[1], [2, 3, 4]]);
    release.shift()!();
    await Promise.all(later);
  });

  it('never overlaps the writes of coalescers sharing a gate; a write waiting for it takes what came meanwhile', async () => {
    const log: string[] = [];
    let running = 0;
    let overlapped = false;
    const release: (() => void)[] = [];
    const writer = (name: string) => (items: number[]) => {
      log.push(`${name}:${items.join(',')}`);
      overlapped ||= ++running > 1;
      return new Promise<void>((r) => release.push(() => (running--, r())));
    };
    const gate = pLimit(1);
    const events = new Coalescer<number>(writer('events'), { gate });
    const deliveries = new Coalescer<number>(writer('deliveries'), { gate });
    const done = [events.submit(1), deliveries.submit(2)];
    await tick();
    await tick();
    expect(log).toEqual(['events:1']); // the deliveries' write waits for the slot
    done.push(deliveries.submit(3), events.submit(4));
    await tick();
    await endOldestWrite(release);
    // 3 joined the waiting write rather than a write of its own a turn later.
    expect(log).toEqual(['events:1', 'deliveries:2,3']);
    await endOldestWrite(release);
    expect(log).toEqual(['events:1', 'deliveries:2,3', 'events:4']);
    release.shift()!();
    await Promise.all(done);
    expect(overlapped).toBe(false);
  });

  it('keeps a write waiting for the gate while one of its own is written, up to maxInFlight', async () => {
    const log: string[] = [];
    const release: (() => void)[] = [];
    const gate = pLimit(1);
    const c = new Coalescer<number>(
      (items) => {
        log.push(items.join(','));
        return new Promise<void>((r) => release.push(r));
      },
      { gate, maxBatch: 2 },
    );
    const done = [1, 2, 3].map((i) => c.submit(i));
    await tick();
    await tick();
    expect(log).toEqual(['1,2']);
    done.push(c.submit(4), c.submit(5));
    await tick();
    await endOldestWrite(release);
    expect(log).toEqual(['1,2', '3,4']); // the waiting write took 3 and what came after, up to maxBatch
    await endOldestWrite(release);
    expect(log).toEqual(['1,2', '3,4', '5']);
    release.shift()!();
    await Promise.all(done);
  });

  it('sends the record writes of a process one at a time', async () => {
    let running = 0;
    let most = 0;
    const write = async () => {
      most = Math.max(most, ++running);
      await tick();
      running--;
    };
    const a = new Coalescer<number>(write, RECORD_WRITES);
    const b = new Coalescer<number>(write, RECORD_WRITES);
    await Promise.all([a.submit(1), b.submit(2), a.submit(3), b.submit(4)]);
    expect(most).toBe(1);
  });

  it('splits at maxBatch and fails every caller of a failed write', async () => {
    const sizes: number[] = [];
    const c = new Coalescer<number>(
      async (items) => {
        sizes.push(items.length);
        if (items.includes(5)) throw new Error('boom');
      },
      { maxBatch: 2, maxInFlight: 4 },
    );
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => c.submit(i)));
    expect(sizes).toEqual([2, 2, 1]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
  });

  it.each([
    ['alone', {}],
    ['behind a gate', { gate: pLimit(1) }],
  ])(
    'fails the callers of a writer that throws instead of rejecting, and writes on (%s)',
    async (_, opts) => {
      let calls = 0;
      const c = new Coalescer<number>((items) => {
        if (calls++ === 0) throw new Error(`bad ${items.join(',')}`);
        return Promise.resolve();
      }, opts);
      await expect(c.submit(1)).rejects.toThrow('bad 1');
      await expect(c.submit(2)).resolves.toBeUndefined();
      await expect(c.drain()).resolves.toBeUndefined();
    },
  );

  it('keeps each write within the weight bound, an item heavier than it alone', async () => {
    const writes: number[][] = [];
    const c = new Coalescer<number>(async (items) => void writes.push(items), {
      maxInFlight: 4,
      weight: { of: (n) => n, max: 10 },
    });
    await Promise.all([4, 5, 3, 12, 2].map((n) => c.submit(n)));
    expect(writes).toEqual([[4, 5], [3], [12], [2]]);
  });

  it('lingers from idle, so items of a low rate share a write', async () => {
    jest.useFakeTimers();
    try {
      const writes: number[][] = [];
      const c = new Coalescer<number>(async (items) => void writes.push(items), { lingerMs: 20 });
      const first = c.submit(1);
      await jest.advanceTimersByTimeAsync(10);
      const second = c.submit(2);
      expect(writes).toEqual([]);
      await jest.advanceTimersByTimeAsync(10);
      await Promise.all([first, second]);
      expect(writes).toEqual([[1, 2]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('drains: resolves once every submitted item is written', async () => {
    const release: (() => void)[] = [];
    const c = new Coalescer<number>((_items) => new Promise<void>((r) => release.push(r)), {
      maxInFlight: 1,
    });
    const written = [c.submit(1), c.submit(2)];
    let drained = false;
    const drain = c.drain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    release.shift()!();
    await Promise.all(written);
    await drain;
    expect(drained).toBe(true);
    await expect(c.drain()).resolves.toBeUndefined();
  });
});
