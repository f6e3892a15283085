import { createHmac } from 'node:crypto';
import type { Bus, ConfigMessage } from '@hookrail/bus';
import type { RunningService } from '@hookrail/runtime';
import type { SourceDoc, Store, SubscriptionDoc } from '@hookrail/store';
import {
  connectTestStore,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  TEST_BROKERS,
  uniquePrefix,
  waitFor,
  type Receiver,
  type RecordedRequest,
} from '@hookrail/testkit';
import { definition as dispatcherDefinition } from '../../../dispatcher/src/service';
import { definition as retrySchedulerDefinition } from '../../../retry-scheduler/src/service';
import { definition } from '../service';
import type { ProjectId } from '@hookrail/domain';

export type Kind = 'amqp' | 'sqs' | 'google' | 'kafka';

/** Environment of a source-consumer under test: the local servers' brokers. */
export const BROKER_ENV = {
  HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
  PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
  // The local servers listen on loopback.
  HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
};

/** The `pub_sub` object of the API for a queue/topic/subscription name on the local servers. */
export function pubSubFor(kind: Kind, name: string, workers = 2): Record<string, unknown> {
  switch (kind) {
    case 'amqp':
      return {
        type: 'amqp',
        workers,
        amqp: {
          host: TEST_BROKERS.amqpHost,
          port: TEST_BROKERS.amqpPort,
          schema: 'amqp',
          vhost: '/',
          queue: name,
          deadLetterExchange: `${name}.dlx`,
          auth: { user: TEST_BROKERS.amqpUser, password: TEST_BROKERS.amqpPassword },
        },
      };
    case 'sqs':
      return {
        type: 'sqs',
        workers,
        sqs: {
          access_key_id: 'x',
          secret_key: 'x',
          default_region: TEST_BROKERS.sqsRegion,
          queue_name: name,
        },
      };
    case 'google':
      return {
        type: 'google',
        workers,
        google: { project_id: TEST_BROKERS.pubsubProject, subscription_id: name },
      };
    case 'kafka':
      return {
        type: 'kafka',
        workers,
        kafka: { brokers: TEST_BROKERS.kafkaBrokers, topic_name: name, consumer_group_id: `${name}-group` },
      };
  }
}

/**
 * The delivery path behind broker sources, in-process on the real servers: a source-consumer and a
 * dispatcher on a private topic prefix, one project with an endpoint on a recording receiver.
 * Source changes are written to the store and announced on the config topic, as the API does.
 */
export class BrokerStack {
  readonly prefix = uniquePrefix('brokers');
  readonly bus: Bus = testBus(this.prefix);
  store!: Store;
  receiver!: Receiver;
  projectId!: ProjectId;
  endpointId = '';
  /** The in-process source-consumer's HTTP address (health, metrics). */
  consumerUrl = '';
  private services: RunningService[] = [];

  constructor(
    private readonly opts: {
      projectType?: 'incoming' | 'outgoing';
      env?: Record<string, string>;
      /** false: the test runs source-consumers as processes of its own. */
      inProcessConsumer?: boolean;
      /**
       * Also run a retry-scheduler: the dispatcher parks deliveries over an endpoint's lane cap
       * through it, so a test that sends hundreds at once needs it to see them all delivered.
       */
      retryScheduler?: boolean;
    } = {},
  ) {}

  async setUp(): Promise<void> {
    this.store = await connectTestStore();
    await this.bus.ensureTopics();
    this.receiver = await startReceiver();
    this.services.push(
      await startTestService(
        dispatcherDefinition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: this.prefix })),
      ),
    );
    if (this.opts.retryScheduler)
      this.services.push(
        await startTestService(
          retrySchedulerDefinition(
            testConfig('retry-scheduler', { HOOKRAIL_KAFKA_TOPIC_PREFIX: this.prefix }),
          ),
        ),
      );
    if (this.opts.inProcessConsumer !== false) {
      const consumer = await startTestService(definition(this.consumerConfig()));
      this.consumerUrl = consumer.url;
      this.services.push(consumer);
    }
  }

  consumerConfig(env: Record<string, string> = {}) {
    return testConfig('source-consumer', {
      HOOKRAIL_KAFKA_TOPIC_PREFIX: this.prefix,
      ...BROKER_ENV,
      ...this.opts.env,
      ...env,
    });
  }

  async tearDown(): Promise<void> {
    await Promise.all(this.services.map((s) => s.stop()));
    await this.receiver?.close();
    await this.bus.close();
    await this.store?.close();
  }

  /**
   * A broker source in a project of its own (with an endpoint on the receiver and, for incoming
   * projects, a subscription to the source): a new project is never in the router's short-lived
   * configuration cache, so its first event already sees its subscription.
   */
  async createSource(
    pubSub: Record<string, unknown>,
    over: Partial<SourceDoc> = {},
    projectType: 'incoming' | 'outgoing' = this.opts.projectType ?? 'incoming',
    subscription: Partial<SubscriptionDoc> = {},
  ): Promise<SourceDoc> {
    this.projectId = await makeProject(this.store, {}, projectType);
    const ep = await makeEndpoint(this.store, this.projectId, {
      name: 'sink',
      url: `${this.receiver.url}/hook`,
    });
    this.endpointId = ep._id;
    const source = await makeSource(this.store, this.projectId, {
      type: 'pub_sub',
      pub_sub: pubSub,
      ...over,
    });
    // Incoming projects route by source; outgoing ones by endpoint.
    await makeSubscription(this.store, this.projectId, {
      name: `sub-${source._id}`,
      source_id: projectType === 'incoming' ? source._id : null,
      endpoint_id: this.endpointId,
      ...subscription,
    });
    await this.announce(source, 'created');
    return source;
  }

  async updateSource(source: SourceDoc, set: Partial<SourceDoc>): Promise<void> {
    await this.store.sources.update(source.project_id, source._id, set);
    await this.announce(source, 'updated');
  }

  async announce(source: SourceDoc, op: ConfigMessage['op']): Promise<void> {
    const publisher = await this.bus.connectPublisher();
    await publisher.publish('config', [
      { project_id: source.project_id, resource: 'source', id: source._id, op },
    ]);
  }

  /** Waits until the source's consumer reports `state` (e.g. consuming). */
  async waitState(source: SourceDoc, state: string, timeoutMs = 20_000) {
    return waitFor(
      `source ${source._id} ${state}`,
      async () => {
        const h = await this.store.sourceHealth.find(source.project_id, source._id);
        return h?.state === state ? h : undefined;
      },
      { timeoutMs, intervalMs: 100 },
    );
  }

  /** A sample of the in-process source-consumer's Prometheus metrics (0 when absent). */
  async metric(name: string, labels: string): Promise<number> {
    const text = await (await fetch(`${this.consumerUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  /** Distinct `n` of the deliveries tagged `tag` (messages published as `{tag, n}`). */
  distinctTagged(tag: string): Set<number> {
    return new Set(this.requestsTagged(tag).map((r) => (JSON.parse(r.body) as { n: number }).n));
  }

  /** Requests the receiver got whose JSON body has `tag` as its `tag` field. */
  requestsTagged(tag: string): RecordedRequest[] {
    return this.receiver.requests.filter((r) => {
      try {
        return (JSON.parse(r.body) as { tag?: string }).tag === tag;
      } catch {
        return false;
      }
    });
  }

  async waitTagged(tag: string, count: number, timeoutMs = 20_000): Promise<RecordedRequest[]> {
    return waitFor(
      `${count} deliveries tagged ${tag}`,
      () => {
        const got = this.requestsTagged(tag);
        return got.length >= count ? got : undefined;
      },
      { timeoutMs, intervalMs: 100 },
    );
  }
}

/** The project's default signature: HMAC-SHA256, hex, over the exact body, with the endpoint secret. */
export function signatureValid(req: RecordedRequest, secret = 'endpoint-secret'): boolean {
  return (
    req.headers['x-hookrail-signature'] === createHmac('sha256', secret).update(req.rawBody).digest('hex')
  );
}
