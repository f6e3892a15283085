import { asProjectId } from '@hookrail/domain';
import { testBus, uniquePrefix, waitFor } from '@hookrail/testkit';
import type { MetaMessage } from './messages';

jest.setTimeout(90_000);

/**
 * A message that left its consumer's window (MessageContext.leaveWindow) is still the consumer's
 * until its handler ends, on real Kafka: a graceful stop waits for it and commits its offset, so
 * the group's next member does not handle it again.
 */
describe('a message out of the window', () => {
  const bus = testBus(uniquePrefix('leave-window'));
  const meta = (tag: string): MetaMessage => ({
    project_id: asProjectId('01HZZZZZZZZZZZZZZZZZZZZZZZ'),
    event_type: 'endpoint.created',
    data: { tag },
    occurred_at: new Date().toISOString(),
  });
  const tagOf = (m: MetaMessage) => (m.data as { tag: string }).tag;

  afterAll(() => bus.close());

  it('is waited for by a graceful stop, and committed: the next member does not get it again', async () => {
    await bus.ensureTopics();
    let assigned = false;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const started: string[] = [];
    const done: string[] = [];
    const first = await bus.consume('leave-window', {
      topic: 'meta',
      concurrency: 1,
      onAssignment: () => (assigned = true),
      handle: async (m, ctx) => {
        started.push(tagOf(m));
        ctx.leaveWindow();
        await finished;
        done.push(tagOf(m));
      },
    });
    await waitFor('consumer joined', () => assigned, { timeoutMs: 30_000 });
    const publisher = await bus.connectPublisher();
    await publisher.publish('meta', [meta('out-of-window')]);
    await waitFor('handler started', () => started.length === 1);

    const stopping = first.stop();
    setTimeout(finish, 1000);
    await stopping;
    expect(done).toEqual(['out-of-window']); // the stop waited for it

    const again: string[] = [];
    let reassigned = false;
    const second = await bus.consume('leave-window', {
      topic: 'meta',
      onAssignment: () => (reassigned = true),
      handle: async (m) => void again.push(tagOf(m)),
    });
    await waitFor('second member joined', () => reassigned, { timeoutMs: 30_000 });
    await publisher.publish('meta', [meta('after')]);
    await waitFor('the next message handled', () => again.includes('after'));
    expect(again).toEqual(['after']);
    await second.stop();
  });
});
