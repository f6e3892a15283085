import { OffsetTracker } from './offset-tracker';

describe('OffsetTracker', () => {
  it('commits only past the finished prefix, whatever order messages finish in', () => {
    const t = new OffsetTracker();
    for (const o of ['10', '11', '12', '13']) t.start(o);
    expect(t.finish('12')).toBeNull();
    expect(t.finish('11')).toBeNull();
    expect(t.pending).toBe(4);
    expect(t.finish('10')).toBe('13');
    expect(t.pending).toBe(1);
    expect(t.finish('13')).toBe('14');
    expect(t.pending).toBe(0);
  });

  it('handles offsets beyond the safe integer range', () => {
    const t = new OffsetTracker();
    t.start('9007199254740993');
    expect(t.finish('9007199254740993')).toBe('9007199254740994');
  });

  it('keeps working after many messages (its buffer is compacted)', () => {
    const t = new OffsetTracker();
    for (let i = 0; i < 5000; i++) t.start(String(i));
    let last: string | null = null;
    for (let i = 0; i < 5000; i++) last = t.finish(String(i)) ?? last;
    expect(last).toBe('5000');
    expect(t.pending).toBe(0);
  });
});
