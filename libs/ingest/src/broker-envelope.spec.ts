import { readBrokerEnvelope } from './broker-envelope';

describe('readBrokerEnvelope', () => {
  it('addresses a single endpoint by default and lower-cases custom headers', () => {
    expect(
      readBrokerEnvelope(
        { endpoint_id: 'E1', event_type: 'a.b', data: { x: 1 }, custom_headers: { 'X-A': 'v' } },
        undefined,
      ),
    ).toEqual({
      kind: 'ok',
      envelope: {
        target: { mode: 'single', endpoint_id: 'E1' },
        event_type: 'a.b',
        data: { x: 1 },
        custom_headers: { 'x-a': 'v' },
      },
    });
  });

  it('reads fanout and broadcast from the message type header', () => {
    expect(readBrokerEnvelope({ owner_id: 'o', event_type: 't', data: 1 }, 'fanout')).toMatchObject({
      envelope: { target: { mode: 'fanout', owner_id: 'o' } },
    });
    expect(readBrokerEnvelope({ event_type: 't', data: 1, idempotency_key: 'k' }, 'Broadcast')).toMatchObject(
      {
        envelope: { target: { mode: 'broadcast' }, idempotency_key: 'k' },
      },
    );
  });

  it('names the problem of a message that can never be sent', () => {
    const problem = (body: unknown, type?: string) => {
      const r = readBrokerEnvelope(body, type);
      return r.kind === 'invalid' ? r.message : 'ok';
    };
    expect(problem({ event_type: 't', data: 1 })).toBe('endpoint_id is required for message type single');
    expect(problem({ event_type: 't', data: 1 }, 'fanout')).toBe(
      'owner_id is required for message type fanout',
    );
    expect(problem({ event_type: 't', data: 1 }, 'multicast')).toMatch(
      /must be one of single, fanout, broadcast/,
    );
    expect(problem([1])).toMatch(/must be a JSON object/);
    expect(problem({ data: 1 }, 'broadcast')).toMatch(/event_type is required/);
    expect(problem({ event_type: 't' }, 'broadcast')).toBe('data is required');
    expect(problem({ event_type: 'invoice.*', data: 1 }, 'broadcast')).toMatch(
      /^event_type: "invoice\.\*" is a pattern, not an event type/,
    );
    expect(problem({ event_type: 't', data: 1, extra: 1 }, 'broadcast')).toMatch(/unknown field\(s\).*extra/);
    expect(problem({ event_type: 't', data: 1, custom_headers: { a: 1 } }, 'broadcast')).toMatch(
      /custom_headers/,
    );
  });
});
