import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

const app = path.resolve(__dirname, '..');
const BIN = path.join(app, 'bin/hookrail.mjs');
const CALLS = 5;

/**
 * `npx hookrail` in a checkout runs the esbuild bundle, built when missing or older than a file it
 * was built from, instead of compiling the sources through tsx on every call (1.0-2.4 s a call).
 * The time per call is printed, not asserted (docs/cli.md has the figures).
 */
describe('the checkout runs the CLI from its bundle', () => {
  it('each call starts from dist/hookrail.mjs, fresh against every file it was built from', async () => {
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--version'], { timeout: 60_000 });
      times.push(performance.now() - t0);
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    }
    const sorted = [...times].sort((a, b) => a - b).map((t) => Math.round(t));
    console.log(`hookrail --version from the checkout: ${sorted.join(', ')} ms (first call may build)`);

    const bundle = path.join(app, 'dist/hookrail.mjs');
    const inputs = JSON.parse(readFileSync(path.join(app, 'dist/hookrail.inputs.json'), 'utf8')) as string[];
    expect(inputs).toContain(path.join(app, 'src/main.ts'));
    const built = statSync(bundle).mtimeMs;
    for (const input of inputs) {
      expect(existsSync(input)).toBe(true);
      expect([input, statSync(input).mtimeMs <= built]).toEqual([input, true]);
    }
    expect(readFileSync(BIN, 'utf8')).not.toContain('tsx');
  });
});
