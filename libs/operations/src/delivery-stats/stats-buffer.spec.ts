import { asProjectId, newId } from '@hookrail/domain';
import type { DeliveryStatsIncrement, EventTypeSighting } from '@hookrail/store';
import { DeliveryStatsBuffer } from './stats-buffer';

const P = asProjectId(newId());
const AT = Date.parse('2026-11-23T12:00:30Z');

describe('DeliveryStatsBuffer', () => {
  it('adds outcomes up per endpoint and for the project, and writes them in one batch', async () => {
    const writes: DeliveryStatsIncrement[][] = [];
    const sightings: EventTypeSighting[][] = [];
    const buffer = new DeliveryStatsBuffer(
      {
        deliveryStats: { increment: async (rows: DeliveryStatsIncrement[]) => void writes.push(rows) },
        eventTypes: { recordSeen: async (rows: EventTypeSighting[]) => void sightings.push(rows) },
      } as never,
      { warn: () => undefined },
      60_000,
    );
    buffer.add({ projectId: P, endpointId: 'e1', eventType: 'a', status: 'Success', latencyMs: 40, at: AT });
    buffer.add({
      projectId: P,
      endpointId: 'e1',
      eventType: 'b',
      status: 'Retry',
      latencyMs: 40,
      at: AT + 1000,
    });
    buffer.add({
      projectId: P,
      endpointId: 'e2',
      eventType: 'a',
      status: 'Discarded',
      latencyMs: null,
      at: AT,
    });
    await buffer.flush();
    expect(writes).toHaveLength(1);
    const minute = Date.parse('2026-11-23T12:00:00Z');
    expect(writes[0]).toEqual([
      { projectId: P, endpointId: 'e1', minute, outcomes: { Success: 1, Retry: 1 }, latency: { 1: 2 } },
      {
        projectId: P,
        endpointId: '*',
        minute,
        outcomes: { Success: 1, Retry: 1, Discarded: 1 },
        latency: { 1: 2 },
      },
      { projectId: P, endpointId: 'e2', minute, outcomes: { Discarded: 1 }, latency: {} },
    ]);
    // the catalog: each (endpoint, type) once, with the latest time seen
    expect(sightings).toEqual([
      [
        { projectId: P, endpointId: 'e1', eventType: 'a', at: new Date(AT) },
        { projectId: P, endpointId: 'e1', eventType: 'b', at: new Date(AT + 1000) },
        { projectId: P, endpointId: 'e2', eventType: 'a', at: new Date(AT) },
      ],
    ]);
    await buffer.flush(); // nothing left: no write
    expect(writes).toHaveLength(1);
  });

  it('drops the counts of a failed write with a warning instead of failing', async () => {
    const warnings: string[] = [];
    const buffer = new DeliveryStatsBuffer(
      {
        deliveryStats: { increment: () => Promise.reject(new Error('down')) },
        eventTypes: { recordSeen: () => Promise.reject(new Error('down')) },
      } as never,
      { warn: (_o: unknown, msg: string) => void warnings.push(msg) } as never,
    );
    buffer.add({ projectId: P, endpointId: 'e1', eventType: 'a', status: 'Success', latencyMs: 1, at: AT });
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(warnings.sort()).toEqual([
      'delivery counters not written (the charts miss them)',
      'event types seen not written',
    ]);
  });
});
