import { TOPICS } from './topics';
import type { EventMessage } from './messages';

describe('the events topic key', () => {
  const event = (ordered?: boolean, idempotency_key?: string): EventMessage => ({
    event_id: 'evt-1',
    project_id: 'prj-1' as EventMessage['project_id'],
    event_type: 't',
    target: { mode: 'source' },
    raw: '{}',
    headers: {},
    accepted_at: '2026-01-01T00:00:00Z',
    ...(ordered !== undefined && { ordered }),
    ...(idempotency_key !== undefined && { idempotency_key }),
  });

  it('is the event id, so routing spreads over every partition', () => {
    expect(TOPICS.events.key(event())).toBe('evt-1');
    expect(TOPICS.events.key(event(false))).toBe('evt-1');
  });

  it('is the project id for a project that orders deliveries, so its events stay in acceptance order', () => {
    expect(TOPICS.events.key(event(true))).toBe('prj-1');
    expect(TOPICS.events.key(event(true, 'k1'))).toBe('prj-1');
  });

  it('is the idempotency key for an event that has one, so its repeats follow it on one partition', () => {
    expect(TOPICS.events.key(event(undefined, 'k1'))).toBe('k1');
    expect(TOPICS.events.key(event(false, 'k1'))).toBe('k1');
  });
});
