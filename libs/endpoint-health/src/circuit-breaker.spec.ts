import { AttemptWindow } from './attempt-window';
import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  it('opens after 10 consecutive failures by default', () => {
    const cb = new CircuitBreaker();
    for (let i = 0; i < 9; i++) expect(cb.record(false, i).kind).toBe('none');
    expect(cb.record(false, 9)).toEqual({ kind: 'opened', reason: '10 consecutive failures' });
    expect(cb.state).toBe('open');
  });

  it('opens at 70 % failures once the last 5 minutes hold 10 attempts, not before', () => {
    const cb = new CircuitBreaker();
    const outcomes = [false, false, true, false, false, true, false, false, true]; // 9 attempts, 67 %
    outcomes.forEach((ok, i) => expect(cb.record(ok, i * 1000).kind).toBe('none'));
    expect(cb.record(false, 9000)).toEqual({
      kind: 'opened',
      reason: '70 % of 10 attempts failed in the last 5 minutes',
    });
  });

  it('stays closed when old failures left the 5-minute window', () => {
    const cb = new CircuitBreaker();
    for (let i = 0; i < 8; i++) cb.record(false, 0);
    cb.record(true, 1000);
    for (let i = 0; i < 3; i++) expect(cb.record(false, 6 * 60_000).kind).toBe('none');
  });

  it('while open makes deliveries wait and lets one probe through every 30 s; a good probe closes it', () => {
    const cb = new CircuitBreaker();
    for (let i = 0; i < 10; i++) cb.record(false, 0);
    expect(cb.check(1000)).toEqual({ kind: 'wait', untilMs: 30_000 });
    expect(cb.check(30_000)).toEqual({ kind: 'probe' });
    expect(cb.check(30_001).kind).toBe('wait');
    expect(cb.record(false, 30_500)).toEqual({ kind: 'none' });
    expect(cb.check(40_000)).toEqual({ kind: 'wait', untilMs: 60_500 });
    expect(cb.check(60_500)).toEqual({ kind: 'probe' });
    expect(cb.record(true, 60_600)).toEqual({ kind: 'closed' });
    expect(cb.check(60_700)).toEqual({ kind: 'send' });
    // failure_rate still reports the last 5 minutes: 11 failed of 12
    expect(cb.failureRate(60_700)).toBe(92);
    // but the closed breaker starts counting afresh: one failure does not reopen it
    expect(cb.record(false, 61_000)).toEqual({ kind: 'none' });
  });

  it('sends another probe when one never reports back', () => {
    const cb = new CircuitBreaker();
    for (let i = 0; i < 10; i++) cb.record(false, 0);
    expect(cb.check(30_000).kind).toBe('probe');
    expect(cb.check(59_999).kind).toBe('wait');
    expect(cb.check(60_000).kind).toBe('probe');
  });

  it('honours project overrides and says when an endpoint open too long should be disabled', () => {
    const cb = new CircuitBreaker();
    cb.configure({ consecutive_failures: 3, probe_interval_seconds: 5, disable_after_seconds: 60 });
    cb.record(false, 0);
    cb.record(false, 0);
    expect(cb.record(false, 0).kind).toBe('opened');
    expect(cb.check(1000)).toEqual({ kind: 'wait', untilMs: 5000 });
    expect(cb.shouldDisable(59_999)).toBe(false);
    expect(cb.shouldDisable(60_000)).toBe(true);
  });
});

describe('AttemptWindow', () => {
  it('reports the failed share of the last 5 minutes in whole percent', () => {
    const w = new AttemptWindow();
    expect(w.failureRate(0)).toBe(0);
    w.record(false, 0);
    w.record(true, 1000);
    w.record(true, 2000);
    expect(w.failureRate(3000)).toBe(33);
    expect(w.failureRate(5 * 60_000 + 10_000)).toBe(0);
  });
});
