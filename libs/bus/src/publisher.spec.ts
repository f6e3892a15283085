import type { Producer, ProducerBatch } from 'kafkajs';
import { DomainError, newProjectId } from '@hookrail/domain';
import { BatchingPublisher } from './publisher';
import type { ConfigMessage } from './messages';

const PROJECT = newProjectId();

/** A stand-in for kafkajs' producer that records produce requests (the publisher's batching is pure logic). */
function recordingProducer(fail?: (b: ProducerBatch) => boolean) {
  const batches: ProducerBatch[] = [];
  const producer = {
    sendBatch: async (b: ProducerBatch) => {
      batches.push(b);
      if (fail?.(b)) throw new Error('MESSAGE_TOO_LARGE');
      return [];
    },
  } as unknown as Producer;
  return { producer, batches };
}

const msg = (id: string): ConfigMessage => ({ project_id: PROJECT, resource: 'endpoint', id, op: 'updated' });
const count = (b: ProducerBatch) => b.topicMessages!.reduce((n, t) => n + t.messages.length, 0);

describe('BatchingPublisher', () => {
  it('coalesces concurrent publishes into one acks=-1 produce request', async () => {
    const { producer, batches } = recordingProducer();
    const pub = new BatchingPublisher(producer, 'hr');
    await Promise.all([pub.publish('config', [msg('a')]), pub.publish('config', [msg('b'), msg('c')])]);
    expect(batches).toHaveLength(1);
    expect(batches[0].acks).toBe(-1);
    expect(batches[0].topicMessages![0].topic).toBe('hr.config');
    expect(count(batches[0])).toBe(3);
  });

  it('gathers messages published while produce requests are in flight into the next request', async () => {
    const batches: ProducerBatch[] = [];
    const acks: (() => void)[] = [];
    const producer = {
      sendBatch: (b: ProducerBatch) => {
        batches.push(b);
        return new Promise((r) => acks.push(() => r([])));
      },
    } as unknown as Producer;
    const pub = new BatchingPublisher(producer, 'hr', { maxInFlight: 1 });
    const first = pub.publish('config', [msg('a')]);
    await new Promise((r) => setImmediate(r));
    const later = ['b', 'c', 'd'].map((id) => pub.publish('config', [msg(id)]));
    await new Promise((r) => setImmediate(r));
    expect(batches.map(count)).toEqual([1]);
    acks.shift()!();
    await first;
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(batches.map(count)).toEqual([1, 3]);
    acks.shift()!();
    await Promise.all(later);
  });

  it('splits a tick into requests within the byte limit', async () => {
    const { producer, batches } = recordingProducer();
    const one = Buffer.byteLength(JSON.stringify(msg('x')));
    const pub = new BatchingPublisher(producer, 'hr', { maxBatchBytes: one * 2 });
    await pub.publish('config', ['a', 'b', 'c', 'd', 'e'].map(msg));
    expect(batches.map(count)).toEqual([2, 2, 1]);
  });

  it('refuses an oversized message alone, without failing the others in its tick', async () => {
    const { producer, batches } = recordingProducer();
    const pub = new BatchingPublisher(producer, 'hr', { maxMessageBytes: 200 });
    const big = { ...msg('big'), id: 'x'.repeat(500) };
    const [ok, refused] = await Promise.allSettled([
      pub.publish('config', [msg('a')]),
      pub.publish('config', [big]),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    const err = (refused as PromiseRejectedResult).reason as DomainError;
    expect(err.code).toBe('payload_too_large');
    expect(err.retriable).toBe(false);
    expect(batches.map(count)).toEqual([1]);
  });

  it('fails every caller of a request Kafka did not acknowledge with a retriable error', async () => {
    const { producer } = recordingProducer(() => true);
    const pub = new BatchingPublisher(producer, 'hr');
    const results = await Promise.allSettled([
      pub.publish('config', [msg('a')]),
      pub.publish('config', [msg('b')]),
    ]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect(((r as PromiseRejectedResult).reason as DomainError).retriable).toBe(true);
    }
  });
});
