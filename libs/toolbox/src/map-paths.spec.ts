import { mapPaths } from './map-paths';

describe('mapPaths', () => {
  it('maps the strings at existing paths in a copy, leaving missing paths and non-strings alone', () => {
    const obj = { a: { b: 'x', n: 1 }, c: null as null | { d: string } };
    const out = mapPaths(obj, ['a.b', 'a.n', 'c.d', 'z.y'], (v) => v.toUpperCase());
    expect(out).toEqual({ a: { b: 'X', n: 1 }, c: null });
    expect(obj.a.b).toBe('x');
    expect(mapPaths(null, ['a'], (v) => v)).toBeNull();
  });
});
