// Prints jest's JSON results as the plain closing line CI reads: "N passed, N failed[, N skipped]",
// summed over the result files given (one per jest run of deploy/local/test.sh). A missing file
// (that run crashed before writing it) counts as one failure.
const fs = require('node:fs');
const total = { passed: 0, failed: 0, skipped: 0 };
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    total.failed += 1;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  // A suite can fail outside its tests (it did not load, or a beforeAll/afterAll hook threw or
  // timed out): jest counts no failed test for it, so it counts here as one failure.
  const failedSuites = r.testResults.filter(
    (s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  total.passed += r.numPassedTests;
  total.failed += r.numFailedTests + failedSuites;
  total.skipped += r.numPendingTests + r.numTodoTests;
}
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
);
