import { KeyOwnership } from './key-ownership';

describe('KeyOwnership', () => {
  const partitionOf = (key: string) => Number(key.slice(1)) % 3;

  it('owns the keys of the assigned partitions only', () => {
    const owned = new KeyOwnership(partitionOf);
    expect(owned.owns('k0')).toBe(false); // nothing before the first assignment
    owned.assign([0, 2]);
    expect(['k0', 'k1', 'k2', 'k3', 'k5'].filter((k) => owned.owns(k))).toEqual(['k0', 'k2', 'k3', 'k5']);
  });

  it('owns nothing while a rebalance is under way, and the new assignment after it', () => {
    const owned = new KeyOwnership(partitionOf);
    owned.assign([0]);
    owned.release();
    expect(owned.owns('k0')).toBe(false);
    owned.assign([1]);
    expect(owned.owns('k0')).toBe(false);
    expect(owned.owns('k1')).toBe(true);
  });
});
