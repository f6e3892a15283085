import { createHmac } from 'node:crypto';
import { newId, newProjectId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import { DEFAULT_PROJECT_CONFIG, type Store } from '@hookrail/store';
import {
  connectTestStore,
  startReceiver,
  startTestService,
  testBus,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { definition } from './service';

const SECRET = 'meta-retry-secret-0123456789';

describe('meta event retries through the real retry-scheduler', () => {
  const prefix = uniquePrefix('meta-retry');
  const bus = testBus(prefix);
  const services: RunningService[] = [];
  let store: Store;
  let receiver: Receiver;

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver({ fail: 1 });
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix };
    services.push(await startTestService(definition(testConfig('meta-event', env))));
    services.push(await startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env))));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await bus.close();
    await store?.close();
    await receiver?.close();
  });

  it('sends a failed meta event again when its linear retry is due, ending Success after 2 attempts', async () => {
    const projectId = newProjectId();
    await store.projects.insert({
      _id: projectId,
      name: `meta-retry-${projectId}`,
      type: 'outgoing',
      config: {
        ...DEFAULT_PROJECT_CONFIG,
        strategy: { type: 'linear', duration: 1, retry_count: 3 },
        meta_event: { is_enabled: true, url: receiver.url, secret: SECRET, event_type: [] },
      },
    });
    await (
      await bus.connectPublisher()
    ).publish('meta', [
      {
        project_id: projectId,
        event_type: 'eventdelivery.failed',
        data: { uid: newId() },
        occurred_at: new Date().toISOString(),
      },
    ]);

    const done = await waitFor(
      'the meta event Success',
      async () => {
        const [doc] = await store.metaEvents.list(projectId, {}, 1000);
        return doc?.status === 'Success' ? doc : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(done.metadata.num_trials).toBe(2);
    expect(done.metadata.next_send_time ?? null).toBeNull();
    expect(done.attempt!.response_data).toBe('ok');

    expect(receiver.count()).toBe(2);
    const [failed, retried] = receiver.requests;
    // One linear interval (1 s) apart, the same signed bytes, the same meta event.
    expect(retried.receivedAt - failed.receivedAt).toBeGreaterThanOrEqual(950);
    expect(retried.rawBody.equals(failed.rawBody)).toBe(true);
    expect(retried.headers['x-hookrail-meta-event-id']).toBe(done._id);
    expect(retried.headers['x-hookrail-signature']).toBe(
      createHmac('sha256', SECRET).update(retried.rawBody).digest('hex'),
    );
    // Nothing more arrives once it succeeded.
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.count()).toBe(2);

    // Both requests are timed, by outcome.
    const metrics = await (await fetch(`${services[0].url}/metrics`)).text();
    for (const outcome of ['success', 'failure'])
      expect(metrics).toMatch(
        new RegExp(
          `^hookrail_meta_event_send_duration_seconds_count\\{[^}]*outcome="${outcome}"[^}]*\\} 1$`,
          'm',
        ),
      );
  });
});
