// Bundles one service and the libs it uses into services/<name>/dist/main.js; npm packages stay
// external (installed next to it by `npm ci --omit=dev` in the image).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

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

// Services that run user functions load their worker thread from dist/function-worker.js
// (libs/functions/src/function-pool.ts looks for it next to the bundle).
const functionWorker = (name) =>
  build({
    entryPoints: [path.join(root, 'libs', 'functions', 'src', 'function-worker.ts')],
    outfile: path.join(root, 'services', name, 'dist', 'function-worker.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });

await Promise.all(
  names.flatMap((name) => [
    functionWorker(name),
    build({
      entryPoints: [path.join(root, 'services', name, 'src', 'main.ts')],
      outfile: path.join(root, 'services', name, 'dist', 'main.js'),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [externalPackages],
    }),
  ]),
);
