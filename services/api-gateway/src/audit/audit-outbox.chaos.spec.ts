import { performance } from 'node:perf_hooks';
import type { AuditRecord } from '@hookrail/api-contract';
import type { Bus } from '@hookrail/bus';
import { newId } from '@hookrail/domain';
import { localKafkaLibs, PrivateKafka, testBus, waitFor } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(300_000);

const libs = localKafkaLibs();
if (!libs) throw new Error('the local Kafka jars are missing: run `bash deploy/local/provision.sh`');

const CALLS = 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The audit log while Kafka is down: a private broker under a real gateway is SIGKILLed. Role
 * changes (calls that need nothing of Kafka themselves) keep being answered, each making two
 * records (the call, member.role_changed) that go to the audit_outbox collection instead of being
 * lost; once Kafka is back the relay publishes every one of them to the audit topic and empties the
 * outbox. A record handed to a plain producer meanwhile, as the gateway did before the outbox, is
 * refused once the producer's retries are spent: lost.
 */
describe('audit records while Kafka is down', () => {
  const h = new GatewayHarness();
  let kafka: PrivateKafka;
  let bus: Bus;
  let project: { id: string; key: string };
  const sub = `user-${newId()}`;
  const seen = new Set<string>();
  const records: AuditRecord[] = [];

  beforeAll(async () => {
    kafka = await PrivateKafka.start(libs);
    bus = testBus(h.prefix, kafka.brokers);
    await bus.ensureTopics();
    await h.start({ HOOKRAIL_KAFKA_BROKERS: kafka.brokers.join(',') });
    await bus.consume('audit-outbox-test', {
      topic: 'audit',
      handle: async (m) => {
        seen.add((m as AuditRecord).uid);
        records.push(m as AuditRecord);
      },
    });
    project = await h.createProject();
    const groupRoles = { instance: null, projects: {} };
    await h.store.people.recordSignIn(
      sub,
      { email: 'erin@example.test', name: 'Erin', groupRoles },
      new Date(),
    );
  });
  afterAll(async () => {
    await bus?.close();
    await h.stop();
    await kafka?.remove();
  });

  /** CALLS role changes one after another; each one's time to its answer, in ms. */
  async function roleChanges(): Promise<number[]> {
    const took: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const res = await h.call('PUT', `/v1/projects/${project.id}/members/${sub}`, {
        key: project.key,
        body: { role: i % 2 === 0 ? 'operator' : 'viewer' },
      });
      took.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    return took;
  }

  it('keeps every record in the outbox and publishes it once Kafka is back; the calls do not wait for Kafka', async () => {
    const up = await roleChanges();
    await waitFor('the records of the calls with Kafka up', () => seen.size >= 2 * CALLS || undefined);

    // what the gateway did before the outbox: hand the record to the producer and hope
    const plain = await bus.connectPublisher();
    await kafka.kill();
    const handedAt = performance.now();
    let plainOutcome: 'pending' | 'published' | 'lost' = 'pending';
    let plainSettledS = 0;
    void plain
      .publish('audit', [{ ...records[0], uid: newId() }])
      .then(
        () => (plainOutcome = 'published'),
        () => (plainOutcome = 'lost'),
      )
      .finally(() => (plainSettledS = (performance.now() - handedAt) / 1000));
    const down = await roleChanges();
    const kept = await waitFor('every record of the calls in the outbox', async () => {
      const records = await h.store.auditOutbox.oldest(1000);
      return records.length >= 2 * CALLS ? records : undefined;
    });
    expect(new Set(kept.map((r) => r.operation))).toEqual(
      new Set(['setProjectMemberRole', 'member.role_changed']),
    );
    // the producer's own retries (8, backoff from 200 ms) spent, still without Kafka
    await waitFor('the plain producer giving up', () => plainOutcome !== 'pending' || undefined, {
      timeoutMs: 150_000,
    }).catch(() => undefined);

    await kafka.restart();
    await waitFor('every kept record published', () => kept.every((r) => seen.has(r.uid)) || undefined, {
      timeoutMs: 120_000,
    });
    await waitFor('the outbox emptied', async () => (await h.store.auditOutbox.count()) === 0 || undefined);
    // the figures reported in docs/access.md
    console.log(
      `role change answered with Kafka up: median ${median(up).toFixed(1)} ms, max ${Math.max(...up).toFixed(1)} ms; ` +
        `Kafka down: median ${median(down).toFixed(1)} ms, max ${Math.max(...down).toFixed(1)} ms; ` +
        `a record handed to a plain producer with Kafka down: ${plainOutcome}${plainSettledS ? ` after ${plainSettledS.toFixed(1)} s` : ''}`,
    );
    expect(plainOutcome).not.toBe('published');
  });
});
