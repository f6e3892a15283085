import { idFrom, isId, newId } from './ids';

describe('ids', () => {
  it('newId gives sortable ULIDs', () => {
    const a = newId();
    const b = newId();
    expect(isId(a)).toBe(true);
    expect(b > a).toBe(true);
  });

  it('idFrom is a pure function of seed and time and gives a valid ULID', () => {
    const at = Date.parse('2026-01-02T03:04:05.678Z');
    const a = idFrom('meta/3/42', at);
    expect(isId(a)).toBe(true);
    expect(idFrom('meta/3/42', new Date(at))).toBe(a);
    expect(idFrom('meta/3/43', at)).not.toBe(a);
    expect(idFrom('meta/3/42', at + 1) > a).toBe(true);
  });
});
