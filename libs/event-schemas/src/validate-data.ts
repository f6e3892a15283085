import { createContext, Script } from 'node:vm';
import type { ValidateFunction } from 'ajv';
import type { FieldError } from '@hookrail/domain';
import { toFieldErrors } from './field-errors';

/**
 * Bounds of checking one event's `data` at intake. Validation is synchronous, and a schema within
 * the creation limits can still take seconds on a chosen payload (nested `anyOf` over `$ref`s is
 * exponential in the payload's depth, `uniqueItems` quadratic in an array's length), so each check
 * runs under a watchdog that stops it after its budget; such a payload counts as not matching.
 * A legitimate check is linear in the payload (1 MiB of objects with an RE2 `pattern` each:
 * 20 ms on an idle core, 80–140 ms on a busy 2-core machine), hence a budget that grows with the
 * payload, up to a cap. The budget is of CPU, watched by the wall clock: a check stopped before its
 * thread had half its budget of CPU (the thread was descheduled on a busy machine, or paused) was
 * not too costly, and is run again, at most twice.
 */
export const DATA_VALIDATION_LIMITS = {
  /** Time any check may take before it is stopped. */
  baseBudgetMs: 50,
  /** Added per MiB of payload (five times the measured cost on a busy machine). */
  budgetMsPerMiB: 500,
  /** Whatever the payload (a project's limit may be up to 50 MiB). */
  maxBudgetMs: 5000,
  /** Failing paths reported for one event (ajv collects all; the rest are counted). */
  reportedErrors: 20,
  /** Runs again of a check stopped before it had used half its budget of CPU. */
  starvedRetries: 2,
} as const;

/** CPU time of the calling thread, in ms. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

export type DataCheck =
  { kind: 'valid' } | { kind: 'invalid'; errors: FieldError[] } | { kind: 'timed_out'; errors: FieldError[] };

// One context for every check: only its watchdog is wanted (vm's `timeout` interrupts whatever
// runs inside, the validator called from there included). `check` is set before each run.
const sandbox = createContext({ check: () => true as unknown });
const run = new Script('check()');

/** The time budget of checking a payload of `payloadBytes`. */
export function validationBudgetMs(payloadBytes: number): number {
  const { baseBudgetMs, budgetMsPerMiB, maxBudgetMs } = DATA_VALIDATION_LIMITS;
  return Math.min(maxBudgetMs, Math.round(baseBudgetMs + (budgetMsPerMiB * payloadBytes) / (1024 * 1024)));
}

/**
 * Checks `data` with a compiled validator, stopped after `budgetMs`. Errors name each failing path under `field`
 * (`data.amount`, `data.lines.0.sku`), at most `reportedErrors` of them, and a last one counting
 * the rest. `cpuMs` reads the thread's CPU time (a parameter for tests).
 */
export function validateData(
  fn: ValidateFunction,
  data: unknown,
  field = 'data',
  budgetMs: number = DATA_VALIDATION_LIMITS.baseBudgetMs,
  cpuMs: () => number = threadCpuMs,
): DataCheck {
  let ok: boolean | 'timed_out' = 'timed_out';
  sandbox.check = () => fn(data);
  try {
    for (let runs = 0; ok === 'timed_out' && runs <= DATA_VALIDATION_LIMITS.starvedRetries; runs++) {
      const cpuBefore = cpuMs();
      ok = runWithin(budgetMs);
      if (ok === 'timed_out' && cpuMs() - cpuBefore >= budgetMs / 2) break; // it had its CPU: too costly
    }
  } finally {
    sandbox.check = () => true;
  }
  if (ok === 'timed_out')
    return {
      kind: 'timed_out',
      errors: [
        { field, message: `could not be checked within ${budgetMs} ms: the schema is too costly for it` },
      ],
    };
  if (ok) return { kind: 'valid' };
  const all = toFieldErrors(fn.errors).map((e) => ({
    field: e.field === 'body' ? field : `${field}.${e.field}`,
    message: e.message,
  }));
  const max = DATA_VALIDATION_LIMITS.reportedErrors;
  const errors =
    all.length > max
      ? [...all.slice(0, max), { field, message: `and ${all.length - max} more failing paths` }]
      : all;
  return {
    kind: 'invalid',
    errors: errors.length > 0 ? errors : [{ field, message: 'does not match the schema' }],
  };
}

/** One run of the check set in the sandbox, stopped by the watchdog after `budgetMs`. */
function runWithin(budgetMs: number): boolean | 'timed_out' {
  try {
    return run.runInContext(sandbox, { timeout: budgetMs }) === true;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
    return 'timed_out';
  }
}
