import { createLogger } from '@hookrail/telemetry';
import { watchTimers } from '@hookrail/testkit';
import type { Session, SubscriberOptions, SubscriberState } from './subscriber';
import { supervise } from './supervise';

// Pure lifecycle rules with scripted sessions; the real clients are exercised by the
// source-consumer integration tests.
function options(states: string[]): SubscriberOptions {
  return {
    workers: 1,
    prefetch: 1,
    handle: async () => ({ kind: 'ack' }),
    onState: (s: SubscriberState, e?: string) => void states.push(e ? `${s}: ${e}` : s),
    onRejected: () => undefined,
    logger: createLogger({ service: 'test', level: 'silent' }),
  };
}

function session() {
  let lose: (e: Error) => void = () => undefined;
  const s: Session & { lose(e: Error): void; closes: number } = {
    closed: new Promise((r) => (lose = r)),
    closes: 0,
    close: async () => void s.closes++,
    lose: (e) => lose(e),
  };
  return s;
}

describe('supervise', () => {
  it('reports consuming, then unreachable when the connection is lost, and reconnects', async () => {
    const states: string[] = [];
    const sessions = [session(), session()];
    let opened = 0;
    const sub = supervise(async () => sessions[opened++], options(states));
    await new Promise((r) => setTimeout(r, 10));
    expect(states).toEqual(['connecting', 'consuming']);
    sessions[0].lose(new Error('socket closed'));
    await new Promise((r) => setTimeout(r, 1200));
    expect(states).toEqual([
      'connecting',
      'consuming',
      'unreachable: socket closed',
      'connecting',
      'consuming',
    ]);
    expect(sessions[0].closes).toBe(1);
    await sub.stop();
    expect(sessions[1].closes).toBe(1);
  });

  it('keeps retrying a broker that refuses connections until stopped', async () => {
    const states: string[] = [];
    let attempts = 0;
    const timers = watchTimers();
    const sub = timers.run(() =>
      supervise(async () => {
        attempts++;
        throw new Error('ECONNREFUSED');
      }, options(states)),
    );
    await new Promise((r) => setTimeout(r, 1500));
    await sub.stop();
    // The backoff wait ends with the stop: no timer is left to hold the process open.
    expect(await timers.pending()).toBe(0);
    timers.stop();
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(states.filter((s) => s.startsWith('unreachable')).length).toBe(attempts);
    const after = attempts;
    await new Promise((r) => setTimeout(r, 600));
    expect(attempts).toBe(after);
  });

  it('closes a session that opened after stop was called', async () => {
    const s = session();
    let release: () => void = () => undefined;
    const sub = supervise(() => new Promise((r) => (release = () => r(s))), options([]));
    const stopped = sub.stop();
    release();
    await stopped;
    expect(s.closes).toBe(1);
  });
});
