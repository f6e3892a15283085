// Bundles the six services, the libs they use and their npm packages into dist/ (one folder, as
// the image carries it): dist/<service>.js for each service, dist/setup.js (topics, then the
// database migrations), and the chunks they share, so code common to several services is on
// disk once. The services run from dist/ alone, without node_modules. Copied next to the
// bundles, because their packages load them by path: quickjs's wasm file and piscina's worker
// script. The console and portal bundles go to dist/ui (tools/build-ui.mjs).
//   node tools/build-services.mjs [outdir]
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildUi } from './build-ui.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
// Every folder of services/ with a src/main.ts.
const SERVICES = readdirSync(path.join(root, 'services')).filter((name) =>
  existsSync(path.join(root, 'services', name, 'src', 'main.ts')),
);
const nodeMajor = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).engines.node.split(
  '.',
)[0];

// Optional dependencies their packages load inside try/catch (mongodb's compression, Kerberos and
// encryption add-ons, piscina's thread priorities): left out, they fail as "not installed", which
// the packages expect.
const OPTIONAL_PACKAGES = [
  'kerberos',
  '@mongodb-js/zstd',
  'snappy',
  'socks',
  'aws4',
  'mongodb-client-encryption',
  '@aws-sdk/credential-providers',
  '@napi-rs/nice',
];

const workspaceLibs = {
  name: 'workspace-libs',
  setup(b) {
    b.onResolve({ filter: /^@hookrail\/[a-z-]+$/ }, (args) => ({
      path: path.join(root, 'libs', args.path.slice('@hookrail/'.length), 'src', 'index.ts'),
    }));
  },
};

// ES modules, for code splitting. The bundled CommonJS packages still call require() and read
// __dirname: give every output file both (all files sit in one folder, so __dirname is the same).
const banner = [
  "import { createRequire as __hrCreateRequire } from 'node:module';",
  "import { fileURLToPath as __hrFileURLToPath } from 'node:url';",
  'const require = __hrCreateRequire(import.meta.url);',
  'const __filename = __hrFileURLToPath(import.meta.url);',
  'const __dirname = import.meta.dirname;',
].join('\n');

const entryPoints = {
  ...Object.fromEntries(SERVICES.map((name) => [name, path.join(root, 'services', name, 'src', 'main.ts')])),
  setup: path.join(root, 'services', 'api-gateway', 'src', 'setup.ts'),
  // libs/functions/src/function-pool.ts looks for the worker thread's code next to itself.
  'function-worker': path.join(root, 'libs', 'functions', 'src', 'function-worker.ts'),
  // piscina starts its own worker as 'worker.js' beside its code, which is now in this folder.
  worker: path.join(path.dirname(require.resolve('piscina')), 'worker.js'),
};

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await Promise.all([
  buildUi(path.join(outdir, 'ui')),
  build({
    entryPoints,
    outdir,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    target: `node${nodeMajor}`,
    format: 'esm',
    banner: { js: banner },
    // Whitespace and syntax minified; identifiers never, so stack traces name functions and classes
    // without the source maps, and without keepNames, whose helper runs each time a named closure
    // is created (on the hot paths, every event). HOOKRAIL_BUNDLE_NAMES=1 (benches with
    // BENCH_PROFILE_DIR): not minified at all, so CPU profiles also give the lines.
    minifyWhitespace: process.env.HOOKRAIL_BUNDLE_NAMES !== '1',
    minifySyntax: process.env.HOOKRAIL_BUNDLE_NAMES !== '1',
    sourcemap: true,
    // The maps name the original files without their text: a third of the size.
    sourcesContent: false,
    legalComments: 'linked',
    logLevel: 'error',
    external: OPTIONAL_PACKAGES,
    plugins: [workspaceLibs],
  }),
]);
await writeFile(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
// quickjs's emscripten module reads its wasm from the folder of the code that loads it.
await copyFile(
  path.join(
    path.dirname(require.resolve('@jitl/quickjs-wasmfile-release-sync/emscripten-module')),
    'emscripten-module.wasm',
  ),
  path.join(outdir, 'emscripten-module.wasm'),
);
