// The CLI in one file: the sources with the API contract and their dependencies bundled, so
// `npm install -g` needs nothing else (run by `npm pack` / `npm publish` as prepack) and a call in
// a checkout starts without compiling TypeScript (bin/hookrail.mjs builds it when it is stale).
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BUNDLE = path.join(here, 'dist/hookrail.mjs');
/** The files the bundle was built from, for bin/hookrail.mjs to tell when it is stale. */
const INPUTS = path.join(here, 'dist/hookrail.inputs.json');

/** Each file written under a name of this process, then renamed: a concurrent call reads a whole file. */
function writeWhole(file, contents) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
}

export async function buildCli() {
  const result = await build({
    entryPoints: [path.join(here, 'src/main.ts')],
    outfile: BUNDLE,
    absWorkingDir: here,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    legalComments: 'linked',
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  mkdirSync(path.dirname(BUNDLE), { recursive: true });
  const inputs = Object.keys(result.metafile.inputs).map((f) => path.resolve(here, f));
  for (const out of result.outputFiles) writeWhole(out.path, out.contents);
  writeWhole(INPUTS, JSON.stringify([...inputs, fileURLToPath(import.meta.url)]));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildCli();
