import { AsyncLocalStorage, createHook } from 'node:async_hooks';

/**
 * Tells how many timers started by the code given to `run` (and by whatever it goes on to do
 * asynchronously) are still pending. Counting the process's timers instead would also see jest's
 * own and those of earlier spec files in the same worker come and go, and fail a test that leaks
 * nothing.
 */
export function watchTimers(): {
  run<T>(fn: () => T): T;
  pending(): Promise<number>;
  stop(): void;
} {
  const scope = new AsyncLocalStorage<true>();
  const started = new Set<number>();
  const hook = createHook({
    init: (id, type) => void (type === 'Timeout' && scope.getStore() && started.add(id)),
    destroy: (id) => void started.delete(id),
  }).enable();
  return {
    run: (fn) => scope.run(true, fn),
    // Node runs destroy hooks from a queue after the timer is cleared or fires: let it drain.
    async pending() {
      await new Promise(setImmediate);
      await new Promise(setImmediate);
      return started.size;
    },
    stop: () => void hook.disable(),
  };
}
