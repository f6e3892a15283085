import { KeyLocks } from './key-locks';

describe('KeyLocks', () => {
  it('lets places of one key in, in the order they were taken, and other keys at once', async () => {
    const locks = new KeyLocks();
    const seen: string[] = [];
    const a1 = locks.take('a');
    const a2 = locks.take('a');
    const b1 = locks.take('b');
    void a2.ready.then(() => seen.push('a2'));
    void b1.ready.then(() => seen.push('b1'));
    await a1.ready;
    await new Promise((r) => setImmediate(r));
    // another key goes in at once; the second place of `a` waits for the first
    expect(seen).toEqual(['b1']);
    a1.release();
    a1.release(); // idempotent
    await a2.ready;
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['b1', 'a2']);
  });

  it('run releases its place when the work throws', async () => {
    const locks = new KeyLocks();
    await expect(locks.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.run('k', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
