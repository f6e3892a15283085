import {
  DeleteQueueCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { TEST_BROKERS, sqsQueue, uniquePrefix } from '@hookrail/testkit';
import { destinationSettings, type SqsDestination } from './destination-settings';
import { SQS_PACKED_HEADERS } from './sqs-attributes';
import { openSqsPublisher } from './sqs.publisher';

describe('SQS destination publisher on ElasticMQ', () => {
  const queueName = uniquePrefix('sqs-attrs').replace(/[^A-Za-z0-9-]/g, '-');
  const client = new SQSClient({
    endpoint: TEST_BROKERS.sqsEndpoint,
    region: TEST_BROKERS.sqsRegion,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  afterAll(async () => {
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: queueName }));
    await client.send(new DeleteQueueCommand({ QueueUrl }));
    client.destroy();
  });

  it('a delivery with more headers than SQS has attributes is published: signature headers as attributes, the rest packed', async () => {
    const queue = await sqsQueue(queueName);
    await queue.close();
    const settings = destinationSettings(
      'ep_sqs_attrs',
      'sqs',
      { access_key_id: 'x', secret_key: 'x', default_region: TEST_BROKERS.sqsRegion, queue_name: queueName },
      { sqsEndpoint: TEST_BROKERS.sqsEndpoint, allowPrivateHosts: true },
    ) as SqsDestination;
    const publisher = await openSqsPublisher(settings, 5_000);
    const forwarded = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`X-Forwarded-${i}`, `f${i}`]));
    const own = {
      'X-Hookrail-Delivery-Id': 'dlv_1',
      'X-Hookrail-Event-Id': 'evt_1',
      'X-Hookrail-Event-Type': 'order.paid',
      'X-Hookrail-Idempotency-Key': 'idem-1',
      'X-Hookrail-Signature': 'abc',
      'webhook-id': 'dlv_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,xyz',
    };
    try {
      const published = await publisher.publish(
        {
          body: Buffer.from('{"ok":true}'),
          headers: { ...forwarded, ...own },
          key: 'evt_1',
          deliveryId: 'dlv_1',
        },
        5_000,
      );
      expect(published).toEqual({ ok: true, messageId: expect.any(String) });
    } finally {
      await publisher.close();
    }
    const { Messages } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MessageAttributeNames: ['All'],
        WaitTimeSeconds: 2,
      }),
    );
    expect(Messages).toHaveLength(1);
    const attrs = Object.fromEntries(
      Object.entries(Messages![0]!.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue]),
    );
    expect(Object.keys(attrs)).toHaveLength(10);
    for (const [k, v] of Object.entries(own)) expect(attrs[k]).toBe(v);
    expect({ ...JSON.parse(attrs[SQS_PACKED_HEADERS]!), ...pick(attrs, Object.keys(forwarded)) }).toEqual(
      forwarded,
    );
    expect(Messages![0]!.Body).toBe('{"ok":true}');
  });
});

const pick = (o: Record<string, string | undefined>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
