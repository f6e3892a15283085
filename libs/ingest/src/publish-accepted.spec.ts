import type { EventMessage } from '@hookrail/bus';
import { DomainError, UnavailableError, newProjectId } from '@hookrail/domain';
import { publishAccepted, publishToEventsTopic } from './publish-accepted';
import { recordingSink } from './testing/recording-sink';

const PRJ1 = newProjectId();
const message: EventMessage = {
  event_id: 'EVT1',
  project_id: PRJ1,
  event_type: 't',
  target: { mode: 'broadcast' },
  raw: '{}',
  headers: {},
  accepted_at: '2026-01-02T03:04:05.678Z',
};

describe('publishToEventsTopic', () => {
  it('publishes to events through the accept guard', async () => {
    const published: EventMessage[] = [];
    const guarded: string[] = [];
    const sink = recordingSink(published, {
      acceptGuard: {
        run: async (send) => {
          guarded.push('before');
          await send();
          guarded.push('after');
        },
      },
    });
    await publishToEventsTopic(message, sink);
    expect(published).toEqual([message]);
    expect(guarded).toEqual(['before', 'after']);
  });

  it("keys a project's events by project when it orders deliveries, read before the guard runs", async () => {
    const published: EventMessage[] = [];
    const order: string[] = [];
    const sink = recordingSink(published, {
      ordersDeliveries: async (projectId) => {
        order.push(`orders ${projectId === PRJ1}`);
        return true;
      },
      acceptGuard: { run: (send) => (order.push('guard'), send()) },
    });
    await publishToEventsTopic(message, sink);
    expect(order).toEqual(['orders true', 'guard']);
    expect(published).toEqual([{ ...message, ordered: true }]);
    expect('ordered' in message).toBe(false);
  });

  it('throws what the guard throws, and a failed configuration read, as they are', async () => {
    const down = new UnavailableError('kafka is unavailable');
    await expect(
      publishToEventsTopic(message, recordingSink([], { acceptGuard: { run: () => Promise.reject(down) } })),
    ).rejects.toBe(down);
    const unread = new Error('database down');
    await expect(
      publishToEventsTopic(message, recordingSink([], { ordersDeliveries: () => Promise.reject(unread) })),
    ).rejects.toBe(unread);
  });
});

describe('publishAccepted', () => {
  it('answers accepted with the event id once published', async () => {
    const published: EventMessage[] = [];
    expect(await publishAccepted(message, recordingSink(published))).toEqual({
      kind: 'accepted',
      eventId: 'EVT1',
    });
    expect(published).toEqual([message]);
  });

  it('answers unavailable for a retriable failure, the configuration read included', async () => {
    const kafkaDown = recordingSink([], {
      acceptGuard: {
        run: () => Promise.reject(new UnavailableError('kafka did not acknowledge within 5 ms')),
      },
    });
    expect(await publishAccepted(message, kafkaDown)).toEqual({
      kind: 'unavailable',
      message: 'kafka did not acknowledge within 5 ms',
    });
    const unread = recordingSink([], {
      ordersDeliveries: () => Promise.reject(new UnavailableError('database down')),
    });
    expect(await publishAccepted(message, unread)).toEqual({ kind: 'unavailable', message: 'database down' });
  });

  it('throws anything else: it is a bug, or a message Kafka can never take', async () => {
    const tooLarge = new DomainError('payload_too_large', 'message is larger than the bus limit');
    const sink = recordingSink([], { publisher: { publish: () => Promise.reject(tooLarge) } });
    await expect(publishAccepted(message, sink)).rejects.toBe(tooLarge);
  });
});
