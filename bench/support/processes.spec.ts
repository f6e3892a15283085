import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { busiestThread, cpuMs, CpuMeter, threadTimes, treeCpuMs, wakeUps } from './processes';

describe('wakeUps', () => {
  it("counts the times a process's threads blocked and were woken, from its /proc entries", async () => {
    // A child that sleeps on a 15 ms timer 30 times, then waits to be told to exit.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `let n = 0; const t = setInterval(() => { if (++n === 30) { clearInterval(t); process.stdout.write('done'); } }, 15);
         process.stdin.resume();`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const pid = child.pid!;
    const before = wakeUps(pid);
    await once(child.stdout!, 'data');
    const after = wakeUps(pid);
    child.stdin!.end();
    await once(child, 'exit');

    expect(Number.isFinite(before)).toBe(true);
    // Each timer fires after the main thread slept, so about one wake-up each; on a busy machine a
    // timer can find its thread already awake, hence half.
    expect(after - before).toBeGreaterThanOrEqual(15);
  });

  it('is NaN for a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await once(child, 'exit');
    expect(wakeUps(child.pid!)).toBeNaN();
  });
});

describe('CpuMeter.settle', () => {
  // A child that keeps most of a core busy (90 ms of CPU in every 100 ms), as a profiled stack's
  // samplers or a phase's trailing writes would.
  const busyChild = () =>
    spawn(process.execPath, [
      '-e',
      `setInterval(() => { const end = Date.now() + 90; while (Date.now() < end); }, 100);`,
    ]);

  it('waits while the processes are above the CPU at rest, up to maxMs', async () => {
    const child = busyChild();
    try {
      // At rest means under 0.05 cores here: a loaded host (CI) can leave the child well under its
      // 0.9 cores for a second, and under the default 0.25 it counted as at rest.
      const waited = await new CpuMeter(new Map([['busy', child.pid!]])).settle(0.05, 2_500);
      expect(waited).toBeGreaterThanOrEqual(2_500);
    } finally {
      child.kill();
    }
  });

  it("allows profiled processes their profiler's share before they count as at rest", async () => {
    const child = busyChild();
    try {
      const meter = new CpuMeter(new Map([['busy', child.pid!]]), { profiled: 20 });
      expect(await meter.settle(undefined, 10_000)).toBeLessThan(10_000);
    } finally {
      child.kill();
    }
  });
});

describe('treeCpuMs', () => {
  it("counts a process's children, those still running and those that ended", async () => {
    // A parent that runs one child burning 300 ms of CPU to its end, then a second that burns
    // 300 ms and stays; the parent itself stays almost idle.
    // Burns CPU time, not wall time: on a busy machine the two differ.
    const burn = (ms: number) =>
      `const t = process.cpuUsage(); const used = () => { const u = process.cpuUsage(t); return u.user + u.system; }; while (used() < ${ms * 1000});`;
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const { spawnSync, spawn } = require('node:child_process');
         spawnSync(process.execPath, ['-e', ${JSON.stringify(burn(300))}]);
         spawn(process.execPath, ['-e', ${JSON.stringify(`${burn(300)} process.stdout.write('done'); setInterval(() => {}, 1000);`)}], { stdio: ['ignore', 'inherit', 'inherit'] });`,
      ],
      // Its own process group, so that the group's kill ends the child it left running too.
      { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
    );
    try {
      await once(parent.stdout!, 'data');
      // Both children's 300 ms, less a clock tick each.
      expect(treeCpuMs(parent.pid!) - cpuMs(parent.pid!)).toBeGreaterThanOrEqual(560);
    } finally {
      process.kill(-parent.pid!, 'SIGKILL');
    }
  });
});

describe('busiestThread', () => {
  const times = (entries: [string, number, number][]) =>
    new Map(entries.map(([tid, ran, waited]) => [tid, { ran, waited }]));

  it('gives the span of the thread that ran most over it, not the one that ran most in all', () => {
    const before = times([
      ['1', 5_000, 900],
      ['2', 10, 5],
    ]);
    const after = times([
      ['1', 5_100, 950],
      ['2', 700, 405],
    ]);
    expect(busiestThread(before, after)).toEqual({ ran: 690, waited: 400 });
  });

  it('counts a thread started during the span from zero, and nothing where there are no threads', () => {
    expect(busiestThread(times([]), times([['7', 300, 120]]))).toEqual({ ran: 300, waited: 120 });
    expect(busiestThread(times([]), times([]))).toBeNull();
  });
});

describe('threadTimes', () => {
  it("reads each thread's time on a core from /proc, and nothing for a process that is gone", async () => {
    // A child that spins its main thread until it has used 200 ms of CPU (not of wall time: on a
    // busy host it waits for a core meanwhile), then waits to be told to exit.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
         const from = used(); while (used() - from < 200);
         process.stdout.write('done'); process.stdin.resume();`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const pid = child.pid!;
    await once(child.stdout!, 'data');
    const main = threadTimes(pid).get(String(pid));
    child.stdin!.end();
    await once(child, 'exit');

    expect(main!.ran).toBeGreaterThanOrEqual(150);
    expect(main!.waited).toBeGreaterThanOrEqual(0);
    expect(threadTimes(pid).size).toBe(0);
  });
});

describe('reapWithThisProcess', () => {
  it('ends the children of a process stopped by SIGTERM', async () => {
    // A process that starts a long-lived child through reapWithThisProcess, prints its pid, and
    // waits; then it is sent SIGTERM, as `timeout` does to a bench.
    const script = `
      import { spawn } from 'node:child_process';
      import { reapWithThisProcess } from ${JSON.stringify(require.resolve('./processes'))};
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      reapWithThisProcess(child);
      process.stdout.write(String(child.pid));
      setInterval(() => {}, 1000);`;
    const parent = spawn(require.resolve('tsx/cli'), ['-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [pidText] = await once(parent.stdout!, 'data');
    const childPid = Number(String(pidText));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(childPid)).toBe(true);
    parent.kill('SIGTERM');
    await once(parent, 'exit');
    for (let i = 0; i < 50 && alive(childPid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(childPid)).toBe(false);
  });
});
