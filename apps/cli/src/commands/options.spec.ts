import { InvalidArgumentError } from 'commander';
import { collectOneOf, positiveInt, sinceTime } from './options';

describe('CLI option parsers', () => {
  it('reads a positive whole number, refusing anything else', () => {
    expect(positiveInt('20')).toBe(20);
    for (const bad of ['0', '-1', '1.5', 'many', ''])
      expect(() => positiveInt(bad)).toThrow(InvalidArgumentError);
  });

  it('reads a time as an ISO date-time or a duration back from now', () => {
    expect(sinceTime('2026-11-24T10:00:00+01:00')).toBe('2026-11-24T09:00:00.000Z');
    // Two hours before the moment it was read: between the clock read just before and just after
    // (however long the call took on a busy host).
    const before = Date.now();
    const t = Date.parse(sinceTime('2h'));
    const after = Date.now();
    expect(t).toBeGreaterThanOrEqual(before - 2 * 3_600_000);
    expect(t).toBeLessThanOrEqual(after - 2 * 3_600_000);
    expect(Date.now() - Date.parse(sinceTime('7d'))).toBeGreaterThanOrEqual(7 * 86_400_000);
    for (const bad of ['yesterday', '2h30', '5w']) expect(() => sinceTime(bad)).toThrow(InvalidArgumentError);
  });

  it('collects repeated values, each one of the choices', () => {
    const status = collectOneOf(['Success', 'Failure']);
    expect(status('Failure', status('Success'))).toEqual(['Success', 'Failure']);
    expect(() => status('Sideways')).toThrow('must be one of Success, Failure');
  });
});
