import { parseDurationSeconds, toTimestamp } from './time';

describe('parseDurationSeconds', () => {
  it.each([
    ['30', 30],
    ['30s', 30],
    ['5m', 300],
    ['1h', 3600],
    ['2d', 172800],
    ['250ms', 0.25],
    [' 10 s ', 10],
  ])('parses %p as %p seconds', (input, seconds) => {
    expect(parseDurationSeconds(input)).toBe(seconds);
  });

  it.each(['', 'abc', '-5', '5 years', '1h30m'])('rejects %p', (input) => {
    expect(parseDurationSeconds(input)).toBeUndefined();
  });
});

describe('toTimestamp', () => {
  it('formats RFC 3339 UTC with milliseconds', () => {
    expect(toTimestamp(Date.UTC(2026, 10, 22, 1, 25, 43, 123))).toBe('2026-11-22T01:25:43.123Z');
  });
});
