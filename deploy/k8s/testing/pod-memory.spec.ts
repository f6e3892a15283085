import { quantityMiB } from './pod-memory';

describe('quantityMiB', () => {
  it('reads the binary and decimal suffixes Kubernetes writes, and plain bytes', () => {
    expect(quantityMiB('768Mi')).toBe(768);
    expect(quantityMiB('1Gi')).toBe(1024);
    expect(quantityMiB('512Ki')).toBe(0.5);
    expect(quantityMiB('1048576')).toBe(1);
    expect(quantityMiB('1M')).toBeCloseTo(0.9537, 4);
  });

  it('refuses what is not a quantity of bytes', () => {
    expect(() => quantityMiB('768 MiB')).toThrow('not a memory quantity: 768 MiB');
    expect(() => quantityMiB('')).toThrow('not a memory quantity');
  });
});
