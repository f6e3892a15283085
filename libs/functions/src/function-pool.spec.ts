import path from 'node:path';
import { DEFAULT_WALL_LIMIT_MS, FunctionPool } from './function-pool';

const LOOP = 'function transform(x) { while (true) {} }';
// One built-in call close to the memory limit: quickjs's deadline check cannot interrupt it.
const MEMORY_BOMB = 'function transform(x) { var a = []; while (true) { a.push(new Array(1e5).fill(x)); } }';

describe('FunctionPool', () => {
  let pool: FunctionPool;
  beforeAll(async () => {
    pool = new FunctionPool({ threads: 2, timeoutMs: 100, graceMs: 300 });
    await pool.ready();
  }, 20_000);
  afterAll(() => pool.close());

  it('runs a function in a worker and returns its JSON result', async () => {
    await expect(pool.run('function transform(x) { x.n = x.n + 1; return x }', { n: 1 })).resolves.toEqual({
      kind: 'ok',
      value: { n: 2 },
    });
  });

  it('stops a looping function at its own deadline, a memory bomb at the pool deadline, keeping the thread free', async () => {
    let maxGap = 0;
    let last = Date.now();
    const tick = setInterval(() => {
      const now = Date.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    try {
      let t = Date.now();
      const loop = await pool.run(LOOP, {});
      const loopMs = Date.now() - t;
      expect(loop).toEqual({ kind: 'error', message: expect.stringMatching(/timed out after 100 ms/) });

      t = Date.now();
      const bomb = await pool.run(MEMORY_BOMB, 'x', { memoryBytes: 1024 * 1024 * 1024 });
      const bombMs = Date.now() - t;
      expect(bomb.kind).toBe('error');
      // Stopped once its worker used 400 ms of CPU (longer than 400 ms on a busy host), and at the
      // latest at the wall limit, plus the worker's termination.
      expect(bombMs).toBeLessThan(DEFAULT_WALL_LIMIT_MS + 1000);
      // Stopped at its 100 ms deadline, well before the wall limit that would otherwise stop it.
      expect(loopMs).toBeLessThan(DEFAULT_WALL_LIMIT_MS / 2);
      // The caller's event loop kept turning while the workers were busy: run on the caller's
      // thread, a call would stall it for the call's whole length. 250 ms, or half the bomb's
      // call on a host busy enough to stretch it.
      expect(maxGap).toBeLessThan(Math.max(250, bombMs / 2));
      console.log(`kill latency: loop ${loopMs} ms, memory bomb ${bombMs} ms, max loop gap ${maxGap} ms`);
    } finally {
      clearInterval(tick);
    }
    // A fresh worker took the killed one's place.
    await expect(pool.run('function transform(x) { return 1 }', {})).resolves.toEqual({
      kind: 'ok',
      value: 1,
    });
  }, 20_000);

  it('runs other calls while one worker is stuck', async () => {
    await pool.ready();
    const stuck = pool.run(MEMORY_BOMB, 'x', { memoryBytes: 1024 * 1024 * 1024 });
    let stuckSettled = false;
    void stuck.then(() => (stuckSettled = true));
    await expect(pool.run('function transform(x) { return x * 2 }', 21)).resolves.toEqual({
      kind: 'ok',
      value: 42,
    });
    // The other call did not wait for the stuck one to be stopped (at its CPU budget at the soonest).
    expect(stuckSettled).toBe(false);
    expect((await stuck).kind).toBe('error');
    expect(pool.stats().killed).toBeGreaterThanOrEqual(2);
  }, 20_000);
});

describe('FunctionPool start', () => {
  it('starts its workers with the first call, not with the pool', async () => {
    const pool = new FunctionPool({ threads: 2 });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(pool.stats().workers).toBe(0);
      await expect(pool.run('function transform(x) { return x + 1 }', 1)).resolves.toEqual({
        kind: 'ok',
        value: 2,
      });
      expect(pool.stats().workers).toBe(2);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it('answers a call after close with an error and starts no worker', async () => {
    const pool = new FunctionPool({ threads: 2 });
    await pool.close();
    await expect(pool.run('function transform(x) { return x }', 1)).resolves.toEqual({
      kind: 'error',
      message: 'function sandbox failed: the pool is closed',
    });
    expect(pool.stats().workers).toBe(0);
  });
});

// The deadline is of the worker's CPU: a worker that waits (for a core, on a busy host) is not
// stopped for it, up to the wall limit; one that uses its CPU is stopped at its budget.
describe('FunctionPool deadline', () => {
  let pool: FunctionPool;
  beforeAll(() => {
    pool = new FunctionPool({
      threads: 1,
      timeoutMs: 100,
      graceMs: 100,
      wallLimitMs: 5_000,
      workerFile: path.join(__dirname, 'testing/holding-worker.js'),
    });
  });
  afterAll(() => pool.close());

  it('lets a call that waited past its budget without using CPU finish', async () => {
    const t = Date.now();
    await expect(pool.run('', { waitMs: 700 })).resolves.toEqual({ kind: 'ok', value: { waitMs: 700 } });
    expect(Date.now() - t).toBeGreaterThanOrEqual(700);
    expect(pool.stats().killed).toBe(0);
  }, 10_000);

  it('stops a call that used its CPU budget, however long it waited first', async () => {
    const killed = pool.stats().killed;
    const t = Date.now();
    const result = await pool.run('', { waitMs: 400, spinMs: 5_000 });
    expect(result).toEqual({ kind: 'error', message: 'function timed out after 100 ms and was stopped' });
    // Stopped after its 200 ms of CPU, not at the wall limit, nor when it waited.
    expect(Date.now() - t).toBeGreaterThanOrEqual(600);
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(pool.stats().killed).toBe(killed + 1);
  }, 10_000);

  it('stops a call still running at the wall limit, whatever CPU it had', async () => {
    const killed = pool.stats().killed;
    const t = Date.now();
    const result = await pool.run('', { waitMs: 10_000 });
    expect(result.kind).toBe('error');
    expect(Date.now() - t).toBeGreaterThanOrEqual(5_000);
    expect(pool.stats().killed).toBe(killed + 1);
    // A fresh worker took its place.
    await expect(pool.run('', { waitMs: 1 })).resolves.toEqual({ kind: 'ok', value: { waitMs: 1 } });
  }, 20_000);
});
