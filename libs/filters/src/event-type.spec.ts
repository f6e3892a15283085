import { matchEventType } from './event-type';

describe('matchEventType', () => {
  it('matches exact types, * and trailing wildcards', () => {
    expect(matchEventType(['invoice.paid'], 'invoice.paid')).toBe(true);
    expect(matchEventType(['invoice.paid'], 'invoice.failed')).toBe(false);
    expect(matchEventType(['*'], 'anything')).toBe(true);
    expect(matchEventType(['invoice.*'], 'invoice.paid')).toBe(true);
    expect(matchEventType(['invoice.*'], 'invoice.line.added')).toBe(true);
    expect(matchEventType(['invoice.*'], 'invoice')).toBe(false);
    expect(matchEventType(['invoice.*'], 'invoices.paid')).toBe(false);
    expect(matchEventType(['a', 'b.*'], 'b.x')).toBe(true);
  });

  it('selects everything when no patterns are configured', () => {
    expect(matchEventType([], 'x')).toBe(true);
    expect(matchEventType(undefined, 'x')).toBe(true);
  });
});
