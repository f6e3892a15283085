/**
 * The events-API bench (e2e.bench.ts, BENCH_TRAFFIC=api) on this tree's services and on a baseline
 * commit's, alternating, then a table of both trees' ranges and the ratio run by run. The host's
 * speed drifts by tens of per cent within an hour, so only runs made back to back compare; each
 * pair alternates which tree goes first.
 *
 *   npm run bench:compare                                        # against 0541b55, 3 pairs
 *   BENCH_COMPARE_REF=<commit> BENCH_COMPARE_RUNS=5 npm run bench:compare
 *
 * The baseline is exported (git archive) to .local/bench-baseline/<commit> and installed there once
 * (npm install: older lock files are refused by `npm ci` on today's npm). The bench itself (load
 * generator, receiver, meters) is this tree's for both, so both are measured with one instrument.
 * Logs and each run's figures (BENCH_JSON) go to .local/bench-compare/<time>/. A short run of this
 * tree goes first and is not counted (warm-up).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import path from 'node:path';
import type { BenchResult } from './support/bench-result';
import { apiFigures, compareTable, type RunPair } from './support/compare-summary';

const root = path.resolve(__dirname, '..');
const REF = process.env.BENCH_COMPARE_REF ?? '0541b55';
const RUNS = Number(process.env.BENCH_COMPARE_RUNS ?? 3);

function exportBaseline(ref: string): string {
  const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: root })
    .toString()
    .trim();
  const dir = path.join(root, '.local/bench-baseline', commit);
  if (!existsSync(path.join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', '--format=tar', commit], {
      cwd: root,
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  if (!existsSync(path.join(dir, 'node_modules'))) {
    console.log(`installing ${commit}'s packages in ${dir}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

/** Runs the events-API bench once; its output goes to `<out>.log`, its figures to `<out>.json`. */
async function benchOnce(
  out: string,
  servicesFrom?: string,
  extraEnv: Record<string, string> = {},
): Promise<BenchResult> {
  const log = createWriteStream(`${out}.log`);
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/e2e.bench.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        BENCH_TRAFFIC: 'api',
        BENCH_JSON: `${out}.json`,
        ...(servicesFrom && { BENCH_SERVICES_FROM: servicesFrom }),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the bench exited with ${code}: see ${out}.log`);
  return JSON.parse(readFileSync(`${out}.json`, 'utf8')) as BenchResult;
}

async function main(): Promise<void> {
  const baselineDir = exportBaseline(REF);
  const outDir = path.join(root, '.local/bench-compare', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(outDir, { recursive: true });
  // A broker or database just started runs its first load slower (the JVM's JIT, cold caches):
  // a short run first, not counted, so that the first pair's first tree does not pay for it.
  await benchOnce(path.join(outDir, 'warm-up'), undefined, {
    BENCH_API_SIZE: '3000',
    BENCH_API_RATE_SECONDS: '5',
  });
  const pairs: RunPair[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const order = i % 2 === 1 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
    const pair: Partial<RunPair> = {};
    for (const tree of order) {
      const t0 = Date.now();
      pair[tree] = await benchOnce(
        path.join(outDir, `${tree}-${i}`),
        tree === 'baseline' ? baselineDir : undefined,
      );
      console.log(
        `pair ${i}/${RUNS}, ${tree === 'baseline' ? REF : 'this tree'}: ${apiFigures(pair[tree]).maxRate.toFixed(0)} events/s ` +
          `(${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
    pairs.push(pair as RunPair);
  }
  const table = compareTable(pairs, REF).join('\n');
  writeFileSync(path.join(outDir, 'summary.md'), table + '\n');
  console.log(`\n${table}\n\nlogs and figures: ${outDir}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
