import { asProjectId } from '@hookrail/domain';
import { decodeMessage, encodeMessage, PoisonMessageError } from './codec';
import { TOPICS, topicName } from './topics';
import type { DeliveryMessage } from './messages';

const delivery: DeliveryMessage = {
  delivery_id: '01JD0000000000000000000001',
  project_id: asProjectId('01JD0000000000000000000002'),
  endpoint_id: '01JD0000000000000000000003',
  event_id: '01JD0000000000000000000004',
  reason: 'initial',
};

describe('message codec', () => {
  it('round-trips a message of the catalog', () => {
    expect(decodeMessage('deliveries', encodeMessage('deliveries', delivery))).toEqual(delivery);
  });

  it('rejects bytes that are not JSON as poison', () => {
    expect(() => decodeMessage('deliveries', Buffer.from('{oops'))).toThrow(PoisonMessageError);
    expect(() => decodeMessage('deliveries', null)).toThrow(/empty value/);
  });

  it('rejects a message missing a required field, naming it', () => {
    const { endpoint_id: _omit, ...rest } = delivery;
    expect(() => decodeMessage('deliveries', Buffer.from(JSON.stringify(rest)))).toThrow(/endpoint_id/);
  });

  it('poison is never retriable', () => {
    try {
      decodeMessage('config', Buffer.from('[]'));
      throw new Error('expected a throw');
    } catch (err) {
      expect(err).toBeInstanceOf(PoisonMessageError);
      expect((err as PoisonMessageError).retriable).toBe(false);
    }
  });
});

describe('topic catalog', () => {
  it('keys deliveries by endpoint so one dispatcher owns an endpoint', () => {
    expect(TOPICS.deliveries.key(delivery)).toBe(delivery.endpoint_id);
  });
  it('names topics under the configured prefix', () => {
    expect(topicName('hookrail', 'events')).toBe('hookrail.events');
    expect(topicName('t42', 'retries')).toBe('t42.retries');
  });
});
