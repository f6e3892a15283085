import { FunctionPool } from './function-pool';

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

  it('stops a looping function at its own deadline, a memory bomb within a second, keeping the thread free', async () => {
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
      expect(bombMs).toBeLessThan(1000);
      expect(loopMs).toBeLessThan(1000);
      // The caller's event loop kept turning while the workers were busy.
      expect(maxGap).toBeLessThan(250);
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
    const t = Date.now();
    await expect(pool.run('function transform(x) { return x * 2 }', 21)).resolves.toEqual({
      kind: 'ok',
      value: 42,
    });
    expect(Date.now() - t).toBeLessThan(300);
    expect((await stuck).kind).toBe('error');
    expect(pool.stats().killed).toBeGreaterThanOrEqual(2);
  }, 20_000);
});
