import { BrokerSettingsError } from '../settings';
import { describeDestination, destinationSettings, withoutCredentials } from './destination-settings';

describe('destinationSettings', () => {
  it('amqp: a queue on the default exchange, or an exchange with its routing key', () => {
    const q = destinationSettings('e1', 'amqp', {
      host: 'mq',
      auth: { user: 'u', password: 'p w' },
      vhost: 'v',
      queue: 'jobs',
    });
    expect(q).toMatchObject({ kind: 'amqp', exchange: '', routingKey: 'jobs' });
    expect(q.kind === 'amqp' && q.connection.url).toBe('amqp://u:p%20w@mq:5672/v');
    expect(describeDestination(q)).toBe('amqp://u@mq:5672/v exchange "" routing key "jobs"');
    const x = destinationSettings('e1', 'amqp', { host: 'mq', exchange: 'ex', routingKey: 'rk' });
    expect(x).toMatchObject({ exchange: 'ex', routingKey: 'rk' });
    expect(() => destinationSettings('e1', 'amqp', { host: 'mq' })).toThrow(
      'destination.queue or destination.exchange is required',
    );
  });

  it('kafka: brokers, topic and SASL as broker sources read them; private hosts follow the environment', () => {
    const k = destinationSettings(
      'e1',
      'kafka',
      {
        brokers: ['b:9092'],
        topic_name: 't',
        auth: { type: 'scram', hash: 'SHA512', username: 'u', password: 'p' },
      },
      { allowPrivateHosts: true },
    );
    expect(k.kind === 'kafka' && k.connection).toMatchObject({
      brokers: ['b:9092'],
      topic: 't',
      sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' },
      allowPrivateHosts: true,
    });
    expect(() => destinationSettings('e1', 'kafka', { topic_name: 't' })).toThrow(
      new BrokerSettingsError('destination.brokers is required'),
    );
  });

  it('sqs: a .fifo queue name makes it FIFO; the deployment endpoint is used', () => {
    const base = { access_key_id: 'a', secret_key: 's', default_region: 'r' };
    const fifo = destinationSettings(
      'e1',
      'sqs',
      { ...base, queue_name: 'q.fifo' },
      { sqsEndpoint: 'http://x' },
    );
    expect(fifo).toMatchObject({
      kind: 'sqs',
      fifo: true,
      connection: { endpoint: 'http://x', queueName: 'q.fifo' },
    });
    expect(destinationSettings('e1', 'sqs', { ...base, queue_name: 'q' })).toMatchObject({ fifo: false });
    expect(() => destinationSettings('e1', 'sqs', { ...base })).toThrow('destination.queue_name is required');
  });

  it('google_pubsub: the topic, ordering, and the key file from its base64 text', () => {
    const key = Buffer.from(JSON.stringify({ client_email: 'a@b', private_key: 'k' })).toString('base64');
    const g = destinationSettings('e1', 'google_pubsub', {
      project_id: 'p',
      topic_id: 't',
      service_account: key,
      message_ordering: true,
    });
    expect(g).toMatchObject({ kind: 'google_pubsub', topicId: 't', ordering: true });
    expect(g.kind === 'google_pubsub' && g.connection.credentials).toEqual({
      client_email: 'a@b',
      private_key: 'k',
    });
    expect(describeDestination(g)).toBe('projects/p/topics/t');
    expect(() => destinationSettings('e1', 'google_pubsub', { project_id: 'p' })).toThrow(
      'destination.topic_id is required',
    );
  });

  it('withoutCredentials drops every credential and nothing else', () => {
    expect(
      withoutCredentials({
        brokers: ['b'],
        auth: { username: 'u', password: 'p' },
        secret_key: 's',
        service_account: 'k',
      }),
    ).toEqual({ brokers: ['b'], auth: { username: 'u' } });
    expect(withoutCredentials(null)).toBeNull();
  });
});
