import { SumBuffer } from './sum-buffer';

type Count = { key: string; n: number };

function buffer(opts: { flushMs?: number; maxKeys?: number; fail?: boolean } = {}) {
  const writes: Count[][] = [];
  const errors: number[] = [];
  const b = new SumBuffer<Count>({
    write: async (items) => {
      if (opts.fail) throw new Error('down');
      writes.push(items);
    },
    merge: (sum, next) => void (sum.n += next.n),
    onError: (_err, items) => void errors.push(items),
    flushMs: opts.flushMs ?? 60_000,
    maxKeys: opts.maxKeys,
  });
  const add = (key: string, n = 1) => b.add(key, { key, n });
  return { b, add, writes, errors };
}

describe('SumBuffer', () => {
  it('adds items up per key and writes them in one write on flush, then nothing until more come', async () => {
    const { b, add, writes } = buffer();
    add('a');
    add('b', 2);
    add('a', 3);
    await b.flush();
    expect(writes).toEqual([
      [
        { key: 'a', n: 4 },
        { key: 'b', n: 2 },
      ],
    ]);
    await b.flush();
    expect(writes).toHaveLength(1);
    add('a');
    await b.flush();
    expect(writes[1]).toEqual([{ key: 'a', n: 1 }]);
  });

  it('writes by itself once flushMs have passed since the first item', async () => {
    jest.useFakeTimers();
    try {
      const { add, writes } = buffer({ flushMs: 2_000 });
      add('a');
      await jest.advanceTimersByTimeAsync(1_000);
      add('a');
      expect(writes).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(writes).toEqual([[{ key: 'a', n: 2 }]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('starts a write early once maxKeys keys wait', async () => {
    const { add, writes } = buffer({ maxKeys: 2 });
    add('a');
    add('a');
    expect(writes).toHaveLength(0);
    add('b');
    await Promise.resolve();
    expect(writes).toEqual([
      [
        { key: 'a', n: 2 },
        { key: 'b', n: 1 },
      ],
    ]);
  });

  it('reports a failed write and drops its sums instead of failing', async () => {
    const { b, add, writes, errors } = buffer({ fail: true });
    add('a');
    add('b');
    await expect(b.flush()).resolves.toBeUndefined();
    expect(errors).toEqual([2]);
    await b.flush();
    expect(writes).toEqual([]);
    expect(errors).toEqual([2]);
  });
});
