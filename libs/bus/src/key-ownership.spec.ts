import { KeyOwnership, type Partitioner } from './key-ownership';

const modulo =
  (n: number): Partitioner =>
  (key) =>
    Number(key.slice(1)) % n;

describe('KeyOwnership', () => {
  it('owns the keys of the assigned partitions only', async () => {
    const owned = new KeyOwnership(async () => modulo(3));
    expect(owned.owns('k0')).toBe(false); // nothing before the first assignment
    await owned.assign([0, 2]);
    expect(['k0', 'k1', 'k2', 'k3', 'k5'].filter((k) => owned.owns(k))).toEqual(['k0', 'k2', 'k3', 'k5']);
  });

  it('owns nothing while a rebalance is under way, and the new assignment after it', async () => {
    const owned = new KeyOwnership(async () => modulo(3));
    await owned.assign([0]);
    owned.release();
    expect(owned.owns('k0')).toBe(false);
    await owned.assign([1]);
    expect(owned.owns('k0')).toBe(false);
    expect(owned.owns('k1')).toBe(true);
  });

  it('reads the partitions again at every assignment (partitions added to the topic)', async () => {
    let partitions = 2;
    const owned = new KeyOwnership(async () => modulo(partitions));
    await owned.assign([1]);
    expect(owned.owns('k3')).toBe(true); // 3 % 2
    partitions = 4;
    await owned.assign([1]);
    expect(owned.owns('k3')).toBe(false); // 3 % 4
    expect(owned.owns('k5')).toBe(true);
  });

  it('owns nothing until the partitions are read, retrying a failed read', async () => {
    let fail = 2;
    const errors: number[] = [];
    const owned = new KeyOwnership(
      async () => {
        if (fail-- > 0) throw new Error('metadata unavailable');
        return modulo(2);
      },
      { onReadError: (_err, attempt) => errors.push(attempt), retryMaxMs: 5 },
    );
    const assigning = owned.assign([0]);
    expect(owned.owns('k0')).toBe(false);
    await assigning;
    expect(errors).toEqual([0, 1]);
    expect(owned.owns('k0')).toBe(true);
  });

  it('keeps the last partitions read while a new read fails', async () => {
    let fail = false;
    const owned = new KeyOwnership(
      async () => {
        if (fail) throw new Error('metadata unavailable');
        return modulo(2);
      },
      { retryMaxMs: 5 },
    );
    await owned.assign([0]);
    fail = true;
    const assigning = owned.assign([1]);
    await new Promise((r) => setTimeout(r, 20));
    expect(owned.owns('k1')).toBe(true);
    expect(owned.owns('k0')).toBe(false);
    owned.release(); // a newer rebalance ends the retries
    await assigning;
    expect(owned.owns('k1')).toBe(false);
  });

  it('drops an assignment whose read finishes after a newer rebalance', async () => {
    let resolveRead: (p: Partitioner) => void = () => undefined;
    const owned = new KeyOwnership(() => new Promise<Partitioner>((r) => (resolveRead = r)));
    const stale = owned.assign([0]);
    owned.release();
    resolveRead(modulo(1));
    await stale;
    expect(owned.owns('k0')).toBe(false);
  });
});
