import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const script = path.join(__dirname, 'summarize-jest.js');

interface Suite {
  status: 'passed' | 'failed';
  assertionResults: { status: 'passed' | 'failed' }[];
}

function results(suites: Suite[], counts: { passed: number; failed: number; pending?: number }) {
  return {
    numPassedTests: counts.passed,
    numFailedTests: counts.failed,
    numPendingTests: counts.pending ?? 0,
    numTodoTests: 0,
    testResults: suites,
  };
}

function summarize(...runs: (object | undefined)[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'summary-'));
  const files = runs.map((run, i) => {
    const file = path.join(dir, `run-${i}.json`);
    if (run) writeFileSync(file, JSON.stringify(run));
    return file;
  });
  return execFileSync(process.execPath, [script, ...files], { encoding: 'utf8' }).trim();
}

const passed = { status: 'passed' as const };
const failed = { status: 'failed' as const };

describe('the closing "N passed, N failed" line', () => {
  it('sums passed, failed and skipped tests over the runs', () => {
    expect(
      summarize(
        results([{ ...passed, assertionResults: [passed, passed] }], { passed: 2, failed: 0 }),
        results([{ ...failed, assertionResults: [passed, failed] }], { passed: 1, failed: 1, pending: 1 }),
      ),
    ).toBe('3 passed, 1 failed, 1 skipped');
  });

  it('counts a suite that failed outside its tests (an afterAll hook timed out) as a failure', () => {
    expect(
      summarize(results([{ ...failed, assertionResults: [passed, passed] }], { passed: 2, failed: 0 })),
    ).toBe('2 passed, 1 failed');
  });

  it('counts a suite that did not load, and a run that wrote no results, as one failure each', () => {
    expect(
      summarize(results([{ ...failed, assertionResults: [] }], { passed: 0, failed: 0 }), undefined),
    ).toBe('0 passed, 2 failed');
  });

  it('does not count a suite twice when its failure is a failed test', () => {
    expect(
      summarize(results([{ ...failed, assertionResults: [failed, passed] }], { passed: 1, failed: 1 })),
    ).toBe('1 passed, 1 failed');
  });
});
