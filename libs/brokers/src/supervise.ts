import { errorMessage } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import pTimeout from 'p-timeout';
import type { Session, Subscriber, SubscriberOptions } from './subscriber';

/**
 * Keeps one source consuming: opens a session, and when the broker goes away (connection refused,
 * dropped, queue deleted) reports `unreachable` and opens a new one with backoff (capped at 10 s),
 * so consumption resumes by itself when the broker is back.
 */
export function supervise(
  open: (opts: SubscriberOptions) => Promise<Session>,
  opts: SubscriberOptions,
): Subscriber {
  let stopped = false;
  let current: Session | undefined;
  let stopSignal: () => void = () => undefined;
  const stopping = new Promise<'stop'>((r) => (stopSignal = () => r('stop')));

  const loop = async () => {
    for (let attempt = 0; !stopped;) {
      opts.onState('connecting');
      let reason: Error | undefined;
      try {
        const session = await open(opts);
        if (stopped) {
          await session.close();
          return;
        }
        current = session;
        attempt = 0;
        opts.onState('consuming');
        const ended = await Promise.race([session.closed, stopping]);
        if (ended === 'stop') return; // stop() closes it
        current = undefined;
        reason = ended ?? new Error('connection closed');
        await session.close().catch(() => undefined);
      } catch (err) {
        reason = err instanceof Error ? err : new Error(String(err));
      }
      if (stopped) return;
      opts.onState('unreachable', errorMessage(reason));
      opts.logger.warn({ err: errorMessage(reason), attempt }, 'broker unreachable, reconnecting');
      await pTimeout(stopping, {
        milliseconds: backoffMs(attempt++, { baseMs: 500, maxMs: 10_000 }),
        message: false,
      });
    }
  };
  const running = loop();

  return {
    async stop() {
      stopped = true;
      stopSignal();
      await running;
      const session = current;
      current = undefined;
      await session?.close();
    },
  };
}
