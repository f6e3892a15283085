// A pool worker for tests: it starts a call as the real worker does, then holds its thread for
// `input.waitMs` without using CPU (like a thread waiting for a core) or spins for `input.spinMs`
// of CPU (like one long built-in call), and returns what it was given.
require('tsx/cjs');
const { callStart, threadCpuMs } = require('../call-deadline.ts');

module.exports = (task) => {
  task.started?.postMessage(callStart());
  task.started?.close();
  const { waitMs = 0, spinMs = 0 } = task.input;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, waitMs);
  const until = threadCpuMs() + spinMs;
  while (threadCpuMs() < until);
  return { kind: 'ok', value: task.input };
};
