// Prints jest's JSON results as the plain closing line CI reads: "N passed, N failed[, N skipped]".
const fs = require('node:fs');
const file = process.argv[2];
if (!fs.existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const r = JSON.parse(fs.readFileSync(file, 'utf8'));
const failedSuites = r.testResults.filter(
  (s) => s.status === 'failed' && s.assertionResults.length === 0,
).length;
const skipped = r.numPendingTests + r.numTodoTests;
const failed = r.numFailedTests + failedSuites;
console.log(`${r.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
