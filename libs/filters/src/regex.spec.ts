import { matchFilter } from './match-filter';
import { regexCacheSize, regexProblem, regexTest } from './regex';
import { validateFilter } from './validate-filter';

describe('$regex on RE2', () => {
  it('matches like JavaScript for ordinary patterns (unanchored, anchors, classes)', () => {
    expect(regexTest('@example\\.com$', 'ann@example.com')).toBe(true);
    expect(regexTest('^b', 'ann')).toBe(false);
    expect(regexTest('\\d{3}-\\d{4}', 'call 555-1234 now')).toBe(true);
    expect(regexTest('(?i)^ORDER', 'order.created')).toBe(true);
  });

  it('runs the catastrophic pattern (a+)+$ on a 100k string in linear time', () => {
    const long = 'a'.repeat(100_000) + 'b';
    expect(regexTest('(a+)+$', long)).toBe(false);
    expect(regexTest('(a+)+$', 'a'.repeat(100_000))).toBe(true);
    expect(matchFilter({ 'data.s': { $regex: '^(a|aa)+$' } }, { data: { s: long } })).toBe(false);
  });

  it('refuses patterns RE2 cannot run, naming the field', () => {
    expect(regexProblem('(?=a)b')).toMatch(/not a valid RE2 regular expression/);
    expect(regexProblem('(a)\\1')).toMatch(/not a valid RE2/);
    expect(validateFilter({ d: { $regex: '(?<=x)y' } }, 'filter_config.filter.body')).toEqual([
      { field: 'filter_config.filter.body.d.$regex', message: expect.stringMatching(/RE2/) },
    ]);
    expect(validateFilter({ d: { $regex: 7 } })[0].message).toBe('must be a string');
  });

  it('an invalid stored pattern never matches (and never throws)', () => {
    expect(matchFilter({ s: { $regex: '(' } }, { s: '(' })).toBe(false);
  });

  it('keeps a bounded number of compiled patterns', () => {
    for (let i = 0; i < 5_000; i++) regexTest(`^k${i}$`, 'x');
    expect(regexCacheSize()).toBeLessThanOrEqual(2_000);
  });
});
