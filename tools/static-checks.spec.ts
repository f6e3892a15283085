import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.join(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the static checks: one list for CI and the pre-push hook', () => {
  const script = read('tools/static-checks.sh');
  const names = [...script.matchAll(/^\s+"([a-z]+)\|([^|]+)\|([^"]+)"$/gm)];

  it('lists typecheck, lint, format and knip, each with the command that fixes it', () => {
    expect(names.map((m) => m[1])).toEqual(['typecheck', 'lint', 'format', 'knip']);
    for (const [, , command, fix] of names) {
      expect(command).toMatch(/^npm run -s /);
      expect(fix.length).toBeGreaterThan(10);
    }
  });

  it("knip checks each workspace's dependencies too: declared once, where the code that imports them is", () => {
    const knip = JSON.parse(read('knip.json')) as { include: string[] };
    expect(knip.include).toEqual(expect.arrayContaining(['dependencies', 'unlisted', 'files', 'exports']));
    const rootDeps = Object.keys((JSON.parse(read('package.json')) as { dependencies: object }).dependencies);
    const telemetry = JSON.parse(read('libs/telemetry/package.json')) as { dependencies: object };
    // a lib's dependency is not repeated at the root (knip would call the root's copy unused)
    expect(rootDeps).not.toContain('prom-client');
    expect(Object.keys(telemetry.dependencies)).toContain('prom-client');
  });

  it('knip, as configured, fails on a planted unused dependency and a planted unlisted one', () => {
    const { include } = JSON.parse(read('knip.json')) as { include: string[] };
    const dir = mkdtempSync(path.join(tmpdir(), 'knip-planted-'));
    const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
    write(
      'package.json',
      JSON.stringify({
        name: 'planted',
        private: true,
        main: 'index.ts',
        dependencies: { 'left-pad': '1.0.0' },
      }),
    );
    write('index.ts', "import camel from 'camelcase';\nexport const x = camel('a-b');\n");
    write('knip.json', JSON.stringify({ include }));
    let out = '';
    try {
      execFileSync(process.execPath, [path.join(root, 'node_modules/knip/bin/knip.js'), '--no-progress'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      out = String((err as { stdout?: string }).stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(out).toMatch(/Unused dependencies \(1\)\s+left-pad/);
    expect(out).toMatch(/Unlisted dependencies \(1\)\s+camelcase/);
  });

  it('is what CI runs and what the pre-push hook runs', () => {
    expect(read('.ci/run')).toContain('bash tools/static-checks.sh');
    const hook = read('.githooks/pre-push');
    expect(hook).toContain('tools/static-checks.sh');
    expect(hook).toContain('HOOKRAIL_SKIP_HOOKS');
    accessSync(path.join(root, '.githooks/pre-push'), constants.X_OK);
    accessSync(path.join(root, 'tools/static-checks.sh'), constants.X_OK);
  });

  it('is installed by the set-up outside CI', () => {
    expect(read('deploy/local/ensure-deps.sh')).toMatch(/git config core\.hooksPath \.githooks/);
  });

  it('the hook steps aside when HOOKRAIL_SKIP_HOOKS=1', () => {
    // a copy of the hook in a fresh git repository with a static-checks.sh that would fail
    const dir = mkdtempSync(path.join(tmpdir(), 'hook-'));
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('mkdir', ['-p', path.join(dir, 'tools')]);
    writeFileSync(path.join(dir, 'tools/static-checks.sh'), 'exit 1\n');
    const hook = path.join(dir, 'pre-push');
    writeFileSync(hook, read('.githooks/pre-push'));
    const run = (env: Record<string, string>) => {
      try {
        execFileSync('bash', [hook], { cwd: dir, env: { ...process.env, ...env }, stdio: 'ignore' });
        return 0;
      } catch (err) {
        return (err as { status: number }).status;
      }
    };
    expect(run({ HOOKRAIL_SKIP_HOOKS: '1' })).toBe(0);
    expect(run({ HOOKRAIL_SKIP_HOOKS: '' })).toBe(1);
  });
});
