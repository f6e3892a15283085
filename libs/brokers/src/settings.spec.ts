import { brokerEnvironment, brokerSettings, describeBroker } from './settings';

describe('brokerSettings', () => {
  it('builds the amqp URL with encoded credentials and vhost, binding and dead-letter exchange', () => {
    const { settings, workers } = brokerSettings('S1', {
      type: 'amqp',
      workers: 3,
      amqp: {
        host: 'rabbit',
        port: '5673',
        schema: 'amqps',
        vhost: 'prod/eu',
        queue: 'q',
        deadLetterExchange: 'dlx',
        auth: { user: 'u@x', password: 'p:w' },
        bindExchange: { exchange: 'ex', routingKey: 'rk' },
      },
    });
    expect(workers).toBe(3);
    expect(settings).toEqual({
      kind: 'amqp',
      url: 'amqps://u%40x:p%3Aw@rabbit:5673/prod%2Feu',
      address: 'amqps://u@x@rabbit:5673/prod%2Feu',
      queue: 'q',
      bind: { exchange: 'ex', routingKey: 'rk' },
      deadLetterExchange: 'dlx',
      allowPrivateHosts: false,
    });
    expect(describeBroker(settings)).not.toContain('p:w');
  });

  it('defaults the amqp port by scheme and the root vhost', () => {
    const { settings } = brokerSettings('S1', { type: 'amqp', amqp: { host: 'h', queue: 'q', vhost: '/' } });
    expect(settings).toMatchObject({ url: 'amqp://h:5672', queue: 'q' });
  });

  it('maps kafka auth to SASL mechanisms and a group per source by default', () => {
    const base = { brokers: ['k:9092'], topic_name: 't' };
    expect(brokerSettings('S1', { type: 'kafka', kafka: base }).settings).toEqual({
      kind: 'kafka',
      brokers: ['k:9092'],
      topic: 't',
      groupId: 'hookrail-source-S1',
      ssl: false,
      allowPrivateHosts: false,
    });
    const scram = brokerSettings('S1', {
      type: 'kafka',
      kafka: {
        ...base,
        consumer_group_id: 'g',
        auth: { type: 'scram', hash: 'SHA512', username: 'u', password: 'p', tls: true },
      },
    }).settings;
    expect(scram).toMatchObject({
      groupId: 'g',
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' },
    });
    const plain = brokerSettings('S1', {
      type: 'kafka',
      kafka: { ...base, auth: { type: 'plain', username: 'u', password: 'p' } },
    });
    expect(plain.settings).toMatchObject({ sasl: { mechanism: 'plain' } });
    const sha256 = brokerSettings('S1', { type: 'kafka', kafka: { ...base, auth: { type: 'scram' } } });
    expect(sha256.settings).toMatchObject({ sasl: { mechanism: 'scram-sha-256' } });
  });

  it('takes from the environment whether private hosts are allowed, and which Kafka is its own', () => {
    const env = brokerEnvironment(
      { brokers: { allowPrivateHosts: true }, kafka: { topicPrefix: 'hookrail' } },
      'cluster-1',
    );
    expect(
      brokerSettings('S1', { type: 'kafka', kafka: { brokers: ['k:9092'], topic_name: 't' } }, env).settings,
    ).toMatchObject({
      allowPrivateHosts: true,
      ownKafka: { clusterId: 'cluster-1', topicPrefix: 'hookrail' },
    });
    expect(
      brokerSettings('S1', { type: 'amqp', amqp: { host: 'h', queue: 'q' } }, env).settings,
    ).toMatchObject({
      allowPrivateHosts: true,
    });
  });

  it('takes the SQS endpoint and Pub/Sub emulator from the environment', () => {
    const sqs = brokerSettings(
      'S1',
      {
        type: 'sqs',
        sqs: { access_key_id: 'a', secret_key: 'b', default_region: 'eu-west-1', queue_name: 'q' },
      },
      { sqsEndpoint: 'http://127.0.0.1:9324' },
    );
    expect(sqs.settings).toEqual({
      kind: 'sqs',
      region: 'eu-west-1',
      queueName: 'q',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      endpoint: 'http://127.0.0.1:9324',
    });
    const key = { client_email: 'x@y', private_key: 'k' };
    const google = brokerSettings('S1', {
      type: 'google',
      google: {
        project_id: 'p',
        subscription_id: 's',
        service_account: [...Buffer.from(JSON.stringify(key))],
      },
    });
    expect(google.settings).toEqual({
      kind: 'google',
      projectId: 'p',
      subscriptionId: 's',
      credentials: key,
    });
    const emulated = brokerSettings(
      'S1',
      { type: 'google', google: { project_id: 'p', subscription_id: 's' } },
      { pubsubEmulatorHost: 'h:1' },
    );
    expect(emulated.settings).toMatchObject({ emulatorHost: 'h:1' });
  });

  it('names a missing field or an unknown kind', () => {
    expect(() => brokerSettings('S1', { type: 'sqs', sqs: { access_key_id: 'a' } })).toThrow(
      'pub_sub.sqs.default_region is required',
    );
    expect(() => brokerSettings('S1', { type: 'kafka', kafka: { topic_name: 't' } })).toThrow(
      'pub_sub.kafka.brokers is required',
    );
    expect(() => brokerSettings('S1', { type: 'nats' })).toThrow(
      'pub_sub.type must be one of amqp, kafka, sqs, google',
    );
    expect(() =>
      brokerSettings('S1', {
        type: 'google',
        google: { project_id: 'p', subscription_id: 's', service_account: [1, 2] },
      }),
    ).toThrow('not a JSON key file');
  });
});
