import type { DestinationSettings } from './destination-settings';
import type { DestinationMessage, DestinationPublisher, PublishResult } from './publisher';
import { DestinationPublishers } from './publisher-cache';

const settings = {
  kind: 'sqs',
  connection: { region: 'r', queueName: 'q' },
} as unknown as DestinationSettings;
const message: DestinationMessage = { body: Buffer.from('{}'), headers: {}, key: 'e1', deliveryId: 'd1' };

/** Publishers that answer `next` and record what was opened and closed. */
function fakes() {
  const opened: { version: number; closed: boolean; broken: boolean }[] = [];
  let next: PublishResult = { ok: true, messageId: 'm' };
  let failOpen = false;
  const open = async (): Promise<DestinationPublisher> => {
    if (failOpen) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const p = { version: opened.length, closed: false, broken: false };
    opened.push(p);
    return {
      get broken() {
        return p.broken;
      },
      publish: async () => next,
      close: async () => void (p.closed = true),
    };
  };
  return {
    opened,
    open,
    answer: (r: PublishResult) => (next = r),
    failOpen: (v: boolean) => (failOpen = v),
  };
}

describe('DestinationPublishers', () => {
  let clock = 0;
  const now = () => clock;
  const caches: DestinationPublishers[] = [];
  const cache = (open: ConstructorParameters<typeof DestinationPublishers>[0]) => {
    const c = new DestinationPublishers(open, now);
    caches.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(caches.splice(0).map((c) => c.close()));
  });

  it('reuses one publisher per endpoint and version; a new version closes the old one', async () => {
    const f = fakes();
    const c = cache(f.open);
    expect(await c.publish('ep', 'v1', settings, message, 1000)).toEqual({ ok: true, messageId: 'm' });
    await c.publish('ep', 'v1', settings, message, 1000);
    await c.publish('other', 'v1', settings, message, 1000);
    expect(f.opened).toHaveLength(2);
    await c.publish('ep', 'v2', settings, message, 1000);
    expect(f.opened).toHaveLength(3);
    await new Promise((r) => setImmediate(r));
    expect(f.opened.map((p) => p.closed)).toEqual([true, false, false]);
  });

  it('an open that fails is a failed publish that certainly sent nothing, and is tried again next time', async () => {
    const f = fakes();
    const c = cache(f.open);
    f.failOpen(true);
    const failed = await c.publish('ep', 'v1', settings, message, 1000);
    expect(failed).toMatchObject({ ok: false, code: 'ECONNREFUSED', maybeReached: false });
    expect(!failed.ok && failed.message).toContain('queue q');
    f.failOpen(false);
    expect(await c.publish('ep', 'v1', settings, message, 1000)).toMatchObject({ ok: true });
    expect(f.opened).toHaveLength(1);
  });

  it('a publisher whose connection broke is closed and replaced', async () => {
    const f = fakes();
    const c = cache(f.open);
    await c.publish('ep', 'v1', settings, message, 1000);
    f.opened[0].broken = true;
    f.answer({ ok: false, code: 'ECONNRESET', message: 'closed', maybeReached: false });
    await c.publish('ep', 'v1', settings, message, 1000);
    f.answer({ ok: true, messageId: 'm2' });
    expect(await c.publish('ep', 'v1', settings, message, 1000)).toEqual({ ok: true, messageId: 'm2' });
    await new Promise((r) => setImmediate(r));
    expect(f.opened.map((p) => p.closed)).toEqual([true, false]);
  });

  it('closes publishers idle for five minutes, keeps the ones in use', async () => {
    const f = fakes();
    const c = cache(f.open);
    clock = 0;
    await c.publish('idle', 'v1', settings, message, 1000);
    clock = 4 * 60_000;
    await c.publish('busy', 'v1', settings, message, 1000);
    clock = 6 * 60_000;
    c.closeIdle();
    await new Promise((r) => setImmediate(r));
    expect(f.opened.map((p) => p.closed)).toEqual([true, false]);
    await c.publish('idle', 'v1', settings, message, 1000);
    expect(f.opened).toHaveLength(3);
  });
});
