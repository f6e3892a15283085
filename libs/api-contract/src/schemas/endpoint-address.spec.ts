import { endpointAddress } from './endpoint-address';

describe('endpointAddress', () => {
  it('is the URL of an http endpoint, with or without a type', () => {
    expect(endpointAddress({ url: 'https://example.com/hook' })).toBe('https://example.com/hook');
    expect(endpointAddress({ type: 'http', url: 'https://example.com/hook', destination: null })).toBe(
      'https://example.com/hook',
    );
  });

  it.each([
    [
      'kafka',
      { brokers: ['k1:9092', 'k2:9092'], topic_name: 'orders', auth: { password: 'p' } },
      'Kafka k1:9092, k2:9092 · topic orders',
    ],
    [
      'amqp',
      { host: 'mq', port: '5672', queue: 'orders', auth: { password: 'p' } },
      'RabbitMQ mq:5672 · queue orders',
    ],
    ['amqp', { host: 'mq', exchange: 'ex', routingKey: 'rk' }, 'RabbitMQ mq · exchange ex · routing key rk'],
    [
      'sqs',
      { default_region: 'eu-west-1', queue_name: 'q.fifo', secret_key: 'p' },
      'SQS eu-west-1 · queue q.fifo',
    ],
    [
      'google_pubsub',
      { project_id: 'acme', topic_id: 'orders', service_account: 'p' },
      'Pub/Sub projects/acme/topics/orders',
    ],
  ])('for %s says where it publishes and never a credential', (type, destination, expected) => {
    const address = endpointAddress({ type, url: '', destination });
    expect(address).toBe(expected);
    expect(address).not.toMatch(/\bp\b/);
  });

  it('for a cli endpoint names hookrail listen (the listener says where it forwards)', () => {
    expect(endpointAddress({ type: 'cli', url: '', destination: null })).toBe('hookrail listen');
  });
});
