// The published package's bundle: the CLI with the API contract and commander in one file, so
// `npm install -g` needs nothing else (run by `npm pack` / `npm publish` as prepack).
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./src/main.ts', import.meta.url).pathname],
  outfile: new URL('./dist/hookrail.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  legalComments: 'linked',
  logLevel: 'warning',
});
