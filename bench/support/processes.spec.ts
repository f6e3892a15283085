import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { wakeUps } from './processes';

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
