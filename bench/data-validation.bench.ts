/**
 * The intake check's time on a legitimate large payload against its budget: a 1 MiB array of
 * 30,000 objects with an RE2 `pattern` each, checked ROUNDS times on this process's own core, with
 * BENCH_BUSY child processes spinning beside it to stand for a loaded host (by default one per
 * core). Prints each round's wall time, the budget the payload gets (validationBudgetMs) and the
 * margin between them. The budget's arithmetic is unit-tested; its margin is a figure, measured here.
 *
 *   npm run bench:validation          # BENCH_ROUNDS=20 BENCH_BUSY=<cores>
 */
import os from 'node:os';
import { fork } from 'node:child_process';
import {
  checkDataSchema,
  compileDataSchema,
  validateData,
  validationBudgetMs,
} from '@hookrail/event-schemas';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const BUSY = Number(process.env.BENCH_BUSY ?? os.availableParallelism());

if (process.argv[2] === 'spin') {
  for (;;) Math.sqrt(Math.random());
} else {
  main();
}

function main(): void {
  const spinners = Array.from({ length: BUSY }, () =>
    fork(__filename, ['spin'], { execArgv: process.execArgv }),
  );
  try {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'amount'],
        properties: {
          id: { type: 'string', pattern: '^in_[0-9]+$' },
          amount: { type: 'integer', minimum: 0 },
        },
      },
    };
    const fn = compileDataSchema(checkDataSchema(schema, 'json_schema')!, 'json_schema');
    const data = Array.from({ length: 30_000 }, (_, i) => ({ id: `in_${i}`, amount: i }));
    const bytes = JSON.stringify(data).length;
    const budget = validationBudgetMs(bytes);
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = process.hrtime.bigint();
      // Checked with the largest budget so a slow round is measured, not cut.
      const out = validateData(fn, data, 'data', 60_000);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (out.kind !== 'valid') throw new Error(`round ${i}: ${out.kind}`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    console.log(
      JSON.stringify(
        {
          payloadBytes: bytes,
          busyProcesses: BUSY,
          budgetMs: budget,
          firstRoundMs: +times[0]!.toFixed(1),
          p50Ms: +at(0.5).toFixed(1),
          maxMs: +sorted[sorted.length - 1]!.toFixed(1),
          marginOverMax: +(budget / sorted[sorted.length - 1]!).toFixed(2),
        },
        null,
        2,
      ),
    );
  } finally {
    for (const s of spinners) s.kill();
  }
}
