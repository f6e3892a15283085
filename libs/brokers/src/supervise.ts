import { errorMessage } from '@hookrail/domain';
import { backoffMs } from '@hookrail/retry';
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
  let wake: (() => void) | undefined;

  const loop = async () => {
    for (let attempt = 0; !stopped;) {
      opts.onState('connecting');
      let reason: Error | undefined;
      try {
        const session = await open(opts);
        if (stopped) {
          await session.close();
          break;
        }
        current = session;
        attempt = 0;
        opts.onState('consuming');
        reason = (await current.closed) ?? new Error('connection closed');
        current = undefined;
        await session.close().catch(() => undefined);
      } catch (err) {
        reason = err instanceof Error ? err : new Error(String(err));
      }
      if (stopped) break;
      opts.onState('unreachable', errorMessage(reason));
      opts.logger.warn({ err: errorMessage(reason), attempt }, 'broker unreachable, reconnecting');
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, backoffMs(attempt++, { baseMs: 500, maxMs: 10_000 }));
      });
    }
  };
  const running = loop();

  return {
    async stop() {
      stopped = true;
      wake?.();
      const session = current;
      current = undefined;
      await session?.close();
      await running;
    },
  };
}
