import { LISTENER_GRACE_MS, LISTENER_RECHECK_MS, withoutListener } from './relay-to-listener';

describe('a delivery to a cli endpoint with nobody listening', () => {
  const created = new Date('2026-12-05T12:00:00Z');
  const at = (ms: number) => created.getTime() + ms;

  it('is held without an attempt while younger than the grace, asked again after the recheck', () => {
    expect(withoutListener({ created_at: created }, at(0))).toEqual({
      kind: 'hold',
      untilMs: at(LISTENER_RECHECK_MS),
      reason: 'paused',
      detail: 'no hookrail listen connected',
    });
    expect(withoutListener({ created_at: created }, at(LISTENER_GRACE_MS - 1)).kind).toBe('hold');
  });

  it('is discarded once the grace is over, saying how to get it', () => {
    expect(withoutListener({ created_at: created }, at(LISTENER_GRACE_MS))).toEqual({
      kind: 'discard',
      reason: 'no hookrail listen connected within 120 s of the event: retry it once one is',
    });
  });
});
