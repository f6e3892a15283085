// Worker entry when running from source (tests, tsx): compiles the TypeScript worker on load.
// A bundled service ships dist/function-worker.js instead (tools/build-services.mjs).
require('tsx/cjs');
module.exports = require('./function-worker.ts');
