import type { ProjectId } from '@hookrail/domain';
import { scheduleEntry, type RetryRequest } from './schedule-entry';

const req = (over: Partial<RetryRequest> = {}): RetryRequest => ({
  delivery_id: 'd1',
  project_id: 'p1' as ProjectId,
  endpoint_id: 'e1',
  due_at: '2026-01-01T00:00:30.000Z',
  reason: 'failed',
  event_id: 'ev1',
  ...over,
});
const now = new Date('2026-01-01T00:00:00.000Z');

describe('scheduleEntry', () => {
  it('keys the entry by kind, target and due time, so a redelivered message maps to it again', () => {
    const out = scheduleEntry(req(), { shard: 'hookrail/3', now });
    expect(out).toEqual({
      kind: 'entry',
      doc: {
        _id: `delivery:d1@${Date.parse('2026-01-01T00:00:30.000Z')}`,
        shard: 'hookrail/3',
        kind: 'delivery',
        target_id: 'd1',
        project_id: 'p1',
        endpoint_id: 'e1',
        event_id: 'ev1',
        meta_event_type: null,
        due_at: new Date('2026-01-01T00:00:30.000Z'),
        reason: 'failed',
        traceparent: null,
        tracestate: null,
        created_at: now,
      },
    });
  });

  it('keeps the trace context of the message that scheduled the retry', () => {
    const trace = {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'v=1',
    };
    const out = scheduleEntry(req(), { shard: 's/0', trace, now });
    expect(out.kind === 'entry' && out.doc).toMatchObject(trace);
  });

  it('refuses an invalid due time and a meta retry without its event type', () => {
    expect(scheduleEntry(req({ due_at: 'soon' }), { shard: 's/0', now })).toEqual({
      kind: 'invalid',
      reason: 'retry message with an invalid due_at',
    });
    expect(scheduleEntry(req({ kind: 'meta' }), { shard: 's/0', now }).kind).toBe('invalid');
    const meta = scheduleEntry(req({ kind: 'meta', meta_event_type: 'endpoint.created' }), {
      shard: 's/0',
      now,
    });
    expect(meta.kind === 'entry' && meta.doc).toMatchObject({ _id: expect.stringMatching(/^meta:d1@/) });
  });
});
