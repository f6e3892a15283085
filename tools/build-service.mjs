// Bundles one service and the libs it uses into services/<name>/dist/main.js (and src/setup.ts,
// where a service has one, into dist/setup.js); npm packages stay external (installed next to it
// by `npm ci --omit=dev` in the image). The api-gateway also gets the console and portal bundles
// (tools/build-ui.mjs, into dist/ui).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildUi } from './build-ui.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: build-service.mjs <service> [<service>...]');
  process.exit(2);
}

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const m = /^@hookrail\/([a-z-]+)$/.exec(args.path);
      if (m) return { path: path.join(root, 'libs', m[1], 'src', 'index.ts') };
      return { path: args.path, external: true };
    });
  },
};

// Each service: src/main.ts → dist/main.js, src/setup.ts (where there is one) → dist/setup.js, and
// the function worker thread → dist/function-worker.js (libs/functions/src/function-pool.ts looks
// for it next to the bundle).
const entries = names.flatMap((name) => [
  ...['main', 'setup']
    .map((entry) => ({ name, entry, src: path.join(root, 'services', name, 'src', `${entry}.ts`) }))
    .filter(({ entry, src }) => entry === 'main' || existsSync(src)),
  { name, entry: 'function-worker', src: path.join(root, 'libs', 'functions', 'src', 'function-worker.ts') },
]);

await Promise.all([
  ...(names.includes('api-gateway') ? [buildUi()] : []),
  ...entries.map(({ name, entry, src }) =>
    build({
      entryPoints: [src],
      outfile: path.join(root, 'services', name, 'dist', `${entry}.js`),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [externalPackages],
    }),
  ),
]);
