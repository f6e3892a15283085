import { Bus, type MetaMessage } from '@hookrail/bus';
import { asProjectId } from '@hookrail/domain';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { TEST_KAFKA_BROKERS, waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

/**
 * Poison messages on real Kafka: a message that always fails is dead-lettered and the partition
 * keeps flowing; a transient failure is retried and handled once; the admin API lists and
 * re-drives dead letters.
 */
describe('dead letters', () => {
  const h = new GatewayHarness();
  let bus: Bus;
  const metrics = new Metrics('tests', { defaultMetrics: false });
  const handled: string[] = [];
  const attempts = new Map<string, number>();
  let poisonFixed = false;

  beforeAll(async () => {
    await h.start();
    bus = new Bus(
      {
        brokers: TEST_KAFKA_BROKERS,
        clientId: 'tests',
        topicPrefix: h.prefix,
        partitions: 3,
        replicationFactor: 1,
      },
      {
        logger: createLogger({ service: 'tests', level: 'silent' }),
        metrics,
        recordDeadLetter: (l) => h.store.deadLetters.record(l),
      },
    );
    await bus.ensureTopics();
    let assigned = false;
    await bus.consume('dlq-test', {
      topic: 'meta',
      maxAttempts: 3,
      onAssignment: () => (assigned = true),
      handle: async (m: MetaMessage) => {
        const label = (m.data as { label: string }).label;
        attempts.set(label, (attempts.get(label) ?? 0) + 1);
        if (label === 'poison' && !poisonFixed) throw new TypeError('cannot read the poison message');
        if (label === 'stubborn') throw new Error('still failing');
        if (label === 'flaky' && attempts.get('flaky')! <= 2) throw new Error('temporarily down');
        handled.push(label);
      },
    });
    await waitFor('consumer joined', () => assigned, { timeoutMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await h.stop();
  });

  it('dead-letters a poison message without blocking its partition, retries a transient failure, and re-drives', async () => {
    const projectId = asProjectId('01HZZZZZZZZZZZZZZZZZZZZZZZ');
    const at = new Date().toISOString();
    const publisher = await bus.connectPublisher();
    // One project: one key, one partition, in this order.
    await publisher.publish(
      'meta',
      ['ok-1', 'poison', 'ok-2', 'flaky', 'stubborn', 'ok-3'].map((label) => ({
        project_id: projectId,
        event_type: 'endpoint.created' as const,
        data: { label },
        occurred_at: at,
      })),
    );

    await waitFor('messages after the poison handled', () => handled.includes('ok-3'), { timeoutMs: 30_000 });
    expect(handled).toEqual(['ok-1', 'ok-2', 'flaky', 'ok-3']);
    expect(attempts.get('poison')).toBe(1); // not retriable: dead-lettered at once
    expect(attempts.get('flaky')).toBe(3); // retried, then handled once
    expect(attempts.get('stubborn')).toBe(3); // maxAttempts, then dead-lettered

    // Counted per topic.
    const rendered = await metrics.registry.getSingleMetricAsString('hookrail_dead_letters_total');
    expect(rendered).toMatch(/hookrail_dead_letters_total\{topic="meta"[^}]*\} 2/);

    // On the dead-letter topic, with the error in headers and body.
    const dlq = bus.kafka.consumer({ groupId: `${h.prefix}.dlq-reader` });
    const onTopic: { error: string; header: string; value: string }[] = [];
    await dlq.connect();
    await dlq.subscribe({ topic: `${h.prefix}.dlq.meta`, fromBeginning: true });
    await dlq.run({
      eachMessage: async ({ message }) => {
        const body = JSON.parse(message.value!.toString()) as { error: string; value: string };
        onTopic.push({
          error: body.error,
          header: String(message.headers?.['x-hookrail-dlq-error']),
          value: body.value,
        });
      },
    });
    await waitFor('both on the DLQ topic', () => onTopic.length >= 2, { timeoutMs: 30_000 });
    await dlq.disconnect();
    expect(onTopic.map((m) => m.error).sort()).toEqual(['cannot read the poison message', 'still failing']);
    expect(onTopic.find((m) => m.error === 'still failing')?.header).toBe('still failing');
    expect(JSON.parse(onTopic.find((m) => m.error.startsWith('cannot'))!.value)).toMatchObject({
      data: { label: 'poison' },
    });

    // Listed by the admin API (admin key only).
    const topic = `${h.prefix}.meta`;
    const project = await h.createProject();
    const denied = await h.call('GET', `/v1/admin/dead-letters?topic=${topic}`, { key: project.key });
    expect(denied.status).toBe(403);
    const list = await h.call<
      { uid: string; error: string; value: string; status: string; attempts: number }[]
    >('GET', `/v1/admin/dead-letters?topic=${topic}`, { key: ADMIN_KEY });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    const poison = list.body.data.find((d) => d.error === 'cannot read the poison message')!;
    expect(poison).toMatchObject({ status: 'pending', attempts: 1 });
    expect(list.body.data.find((d) => d.error === 'still failing')).toMatchObject({ attempts: 3 });

    // Re-drive after the fix: the consumer handles it, the record says so.
    poisonFixed = true;
    const redriven = await h.call(
      'POST',
      `/v1/admin/dead-letters/${encodeURIComponent(poison.uid)}/redrive`,
      {
        key: ADMIN_KEY,
      },
    );
    expect(redriven.status).toBe(202);
    expect(redriven.body.data).toMatchObject({ uid: poison.uid, status: 'redriven', redrive_count: 1 });
    await waitFor('re-driven message handled', () => handled.includes('poison'), { timeoutMs: 30_000 });
    const missing = await h.call('POST', '/v1/admin/dead-letters/nope/redrive', { key: ADMIN_KEY });
    expect(missing.status).toBe(404);
  }, 90_000);
});
