import { eventTypePatternProblem, matchEventType } from './event-type';

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

describe('eventTypePatternProblem', () => {
  it('refuses the wildcard of patterns in the type an event is sent with', () => {
    expect(eventTypePatternProblem('invoice.paid')).toBeUndefined();
    expect(eventTypePatternProblem('invoice paid/v2')).toBeUndefined();
    for (const pattern of ['*', 'invoice.*', 'a*b'])
      expect(eventTypePatternProblem(pattern)).toBe(
        `"${pattern}" is a pattern, not an event type: send one concrete type (invoice.paid); patterns such as invoice.* belong in a subscription's filter_config.event_types`,
      );
  });
});
