import type { MessagePort } from 'node:worker_threads';
import { callStart } from './call-deadline';
import { FunctionRunner, type FunctionResult, type RunOptions } from './function-runner';

/** One task of the pool: a call of `transform(input)` in this worker's own quickjs runner. */
export interface FunctionTask {
  source: string;
  input: unknown;
  opts: RunOptions;
  /** Told when the call starts (`CallStart`), so the pool's deadline excludes time in the queue. */
  started?: MessagePort;
}

/**
 * Worker entry (piscina awaits a promised handler before it reports the worker ready): quickjs is
 * loaded before the first task, so a call's deadline never pays for a worker's start-up. Each
 * worker keeps its own compiled functions warm.
 */
const handler: Promise<(task: FunctionTask) => FunctionResult> = FunctionRunner.create().then(
  (runner) => (task) => {
    task.started?.postMessage(callStart());
    task.started?.close();
    return runner.run(task.source, task.input, task.opts);
  },
);
export default handler;
