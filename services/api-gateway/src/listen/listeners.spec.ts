import type { ListenDeliveryEvent } from '@hookrail/api-contract';
import { DomainError } from '@hookrail/domain';
import { Listeners, type ListenerStream } from './listeners';

const request = (timeout_ms = 1000) => ({
  delivery_id: 'd1',
  event_id: 'e1',
  event_type: 'invoice.paid',
  headers: { 'X-Hookrail-Signature': 'abc' },
  body: '{"a":1}',
  timeout_ms,
});

function stream(): ListenerStream & { sent: ListenDeliveryEvent[]; closed: boolean } {
  const s = {
    sent: [] as ListenDeliveryEvent[],
    closed: false,
    send: (_event: 'delivery', data: ListenDeliveryEvent) => void s.sent.push(data),
    close: () => void (s.closed = true),
  };
  return s;
}

const answer = (request_id: string, status = 200) => ({
  request_id,
  url: 'http://localhost:3000/hooks',
  status,
  headers: { 'x-local': 'yes' },
  body: 'ok',
  latency_ms: 4,
  error: null,
});

describe('Listeners', () => {
  it("hands a request to the endpoint's newest stream and resolves with its answer", async () => {
    const l = new Listeners();
    const older = stream();
    const newer = stream();
    l.add('p1', 'ep1', older);
    const removeNewer = l.add('p1', 'ep1', newer);
    const relayed = l.relay('p1', 'ep1', request());
    expect(older.sent).toEqual([]);
    expect(newer.sent).toEqual([
      expect.objectContaining({ method: 'POST', delivery_id: 'd1', body: '{"a":1}' }),
    ]);
    const id = newer.sent[0].request_id;
    // another project's or endpoint's answer does not settle it
    expect(l.answer('p2', 'ep1', answer(id))).toBe(false);
    expect(l.answer('p1', 'ep2', answer(id))).toBe(false);
    expect(l.answer('p1', 'ep1', answer(id, 500))).toBe(true);
    await expect(relayed).resolves.toMatchObject({ status: 500, body: 'ok', latency_ms: 4, error: null });
    expect(l.answer('p1', 'ep1', answer(id))).toBe(false); // answered once

    removeNewer();
    l.relay('p1', 'ep1', request()).catch(() => undefined);
    expect(older.sent).toHaveLength(1); // the older one gets them again
  });

  it('refuses when no stream is connected, and fails a request not answered in its time', async () => {
    jest.useFakeTimers();
    try {
      const l = new Listeners();
      await expect(l.relay('p1', 'ep1', request())).rejects.toThrow(
        'no hookrail listen connected for endpoint ep1',
      );
      l.add('p1', 'ep1', stream());
      const late = l.relay('p1', 'ep1', request(3000));
      jest.advanceTimersByTime(3000);
      await expect(late).rejects.toThrow(
        new DomainError('unavailable', 'the hookrail listen of endpoint ep1 did not answer in 3 s'),
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it('closes every stream and fails every waiting attempt when the gateway stops, and refuses new streams', async () => {
    const l = new Listeners();
    const s = stream();
    l.add('p1', 'ep1', s);
    expect(l.size).toBe(1);
    const waiting = l.relay('p1', 'ep1', request(60_000));
    l.closeAll();
    await expect(waiting).rejects.toThrow('the gateway holding the hookrail listen stopped');
    expect(s.closed).toBe(true);
    expect(l.accepting).toBe(false);
    const late = stream();
    l.add('p1', 'ep1', late);
    expect(late.closed).toBe(true);
    expect(l.size).toBe(0);
  });
});
