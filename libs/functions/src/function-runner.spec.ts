import { FunctionRunner } from './function-runner';

describe('FunctionRunner', () => {
  let runner: FunctionRunner;
  beforeAll(async () => {
    runner = await FunctionRunner.create({ timeoutMs: 100, memoryBytes: 8 * 1024 * 1024 });
  });
  afterAll(() => runner.clear());

  const addFlag = 'function transform(x) { x.flag = true; return x }';

  it('transforms JSON in and returns JSON out', () => {
    expect(runner.run(addFlag, { a: 1 })).toEqual({ kind: 'ok', value: { a: 1, flag: true } });
    expect(runner.run('function transform(x) { return x.items.length }', { items: [1, 2] })).toEqual({
      kind: 'ok',
      value: 2,
    });
  });

  it('never mutates the host input', () => {
    const input = { a: 1 };
    runner.run(addFlag, input);
    expect(input).toEqual({ a: 1 });
  });

  it('reports a text without transform clearly', () => {
    const r = runner.run('function handler(x) { return x }', {});
    expect(r).toEqual({ kind: 'error', message: expect.stringContaining('must define transform') });
  });

  it('reports syntax errors and thrown errors with their text', () => {
    expect(runner.run('function transform(x) { return x', {})).toEqual({
      kind: 'error',
      message: expect.stringContaining('SyntaxError'),
    });
    expect(runner.run('function transform(x) { throw new Error("bad payload") }', {})).toEqual({
      kind: 'error',
      message: 'Error: bad payload',
    });
    expect(runner.run('function transform(x) { throw "plain" }', {})).toEqual({
      kind: 'error',
      message: 'function threw "plain"',
    });
  });

  it('refuses undefined, async and non-JSON results', () => {
    expect(runner.run('function transform(x) { x.a = 1 }', {})).toMatchObject({ kind: 'error' });
    expect(runner.run('async function transform(x) { return x }', {})).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('async'),
    });
    expect(runner.run('function transform(x) { return function () {} }', {})).toMatchObject({
      kind: 'error',
    });
  });

  it('has no access to the host', () => {
    const probe = `function transform(x) {
      return [typeof require, typeof process, typeof setTimeout, typeof fetch, typeof XMLHttpRequest, typeof globalThis.os, typeof globalThis.std];
    }`;
    expect(runner.run(probe, {})).toEqual({ kind: 'ok', value: Array(7).fill('undefined') });
  });

  it('stops an endless loop at the deadline and keeps working afterwards', () => {
    // the budget is of this thread's CPU (wall time depends on the host's load)
    const started = process.threadCpuUsage();
    const r = runner.run('function transform(x) { while (true) {} }', {});
    const { user, system } = process.threadCpuUsage(started);
    const tookMs = (user + system) / 1000;
    expect(r).toEqual({ kind: 'error', message: 'function timed out after 100 ms' });
    expect(tookMs).toBeGreaterThanOrEqual(95);
    expect(tookMs).toBeLessThan(400);
    expect(runner.run(addFlag, { b: 2 })).toEqual({ kind: 'ok', value: { b: 2, flag: true } });
  });

  it('charges a call the CPU it had, not the wall time: a slow clock lets a long loop finish', async () => {
    // A thread CPU clock that barely moves stands for a thread descheduled for most of the call.
    let t = 0;
    let step = 0.000_01;
    const starved = await FunctionRunner.create({ timeoutMs: 100, cpuMs: () => (t += step) });
    const loop = 'function transform(x) { var n = 0; for (var i = 0; i < 2e7; i++) n += i % 7; return n }';
    try {
      expect(starved.run(loop, {})).toEqual({ kind: 'ok', value: 59999997 });
      // the same runner stops what never ends once its clock passes the budget
      step = 1;
      expect(starved.run('function transform(x) { while (true) {} }', {})).toEqual({
        kind: 'error',
        message: 'function timed out after 100 ms',
      });
    } finally {
      starved.clear();
    }
  });

  it('stops a loop that swallows the interrupt', () => {
    const sneaky = 'function transform(x) { for (;;) { try { while (true) {} } catch (e) {} } }';
    expect(runner.run(sneaky, {})).toEqual({ kind: 'error', message: 'function timed out after 100 ms' });
  });

  it('stops a memory bomb at the memory limit and keeps working afterwards', () => {
    const bomb = 'function transform(x) { var a = []; while (true) { a.push({ i: a.length }) } }';
    const r = runner.run(bomb, {}, { timeoutMs: 5000, memoryBytes: 4 * 1024 * 1024 });
    expect(r).toEqual({ kind: 'error', message: 'function exceeded its memory limit' });
    expect(runner.run(addFlag, {})).toEqual({ kind: 'ok', value: { flag: true } });
  });

  it('stops a string bomb', () => {
    const r = runner.run('function transform(x) { var s = "x"; while (true) { s = s + s } }', {});
    expect(r).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/string too long|memory limit/),
    });
  });

  it('stops catastrophic regular expression backtracking at the deadline', () => {
    const r = runner.run('function transform(x) { return /(a+)+$/.test("a".repeat(40) + "b") }', {});
    expect(r).toEqual({ kind: 'error', message: 'function timed out after 100 ms' });
  });

  it('stops unbounded recursion', () => {
    const r = runner.run('function transform(x) { return transform(x) }', {});
    expect(r).toMatchObject({ kind: 'error', message: expect.stringMatching(/stack|recursion/i) });
  });

  it('gives each call a fresh deadline on a cached function', () => {
    const slowish = 'function transform(x) { var e = Date.now() + 40; while (Date.now() < e) {} return x }';
    for (let i = 0; i < 5; i++) expect(runner.run(slowish, i)).toEqual({ kind: 'ok', value: i });
  });

  it('keeps scopes apart', () => {
    const counter = 'var n = 0; function transform(x) { n += 1; return n }';
    expect(runner.run(counter, {}, { scope: 'p1' })).toEqual({ kind: 'ok', value: 1 });
    expect(runner.run(counter, {}, { scope: 'p1' })).toEqual({ kind: 'ok', value: 2 });
    expect(runner.run(counter, {}, { scope: 'p2' })).toEqual({ kind: 'ok', value: 1 });
  });

  it('evicts and disposes contexts beyond the cache size', async () => {
    const small = await FunctionRunner.create({ maxCached: 2 });
    for (let i = 0; i < 10; i++) {
      expect(small.run(`function transform(x) { return x + ${i} }`, 1)).toEqual({ kind: 'ok', value: 1 + i });
    }
    small.clear();
  });
});
