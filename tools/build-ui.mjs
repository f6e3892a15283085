// Bundles the operator console and the customer portal (Preact + uPlot, services/api-gateway/ui)
// into services/api-gateway/dist/ui/assets, minified with content-hashed file names, and
// dist/ui/manifest.json naming each page's script and stylesheet. The gateway serves these files; nothing is loaded from a CDN.
// Run by tools/build-services.mjs (npm start, the image) and by the integration tests' global setup.
import { build } from 'esbuild';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const uiSource = path.join(root, 'services', 'api-gateway', 'ui');
export const UI_OUT = path.join(root, 'services', 'api-gateway', 'dist', 'ui');
const PAGES = ['console', 'portal'];

export async function buildUi(out = UI_OUT) {
  const outdir = path.join(out, 'assets');
  await rm(out, { recursive: true, force: true }); // no stale hashed files from earlier builds
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: Object.fromEntries(PAGES.map((p) => [p, path.join(uiSource, p, 'main.tsx')])),
    absWorkingDir: root, // metafile paths are relative to it
    outdir,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const manifest = {};
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    const page = PAGES.find(
      (p) => out.entryPoint === path.relative(root, path.join(uiSource, p, 'main.tsx')),
    );
    if (page)
      manifest[page] = { js: path.basename(file), css: out.cssBundle ? path.basename(out.cssBundle) : null };
  }
  const missing = PAGES.filter((p) => !manifest[p]);
  if (missing.length) throw new Error(`build-ui: no bundle for ${missing.join(', ')}`);
  // Written last and renamed into place: a gateway never reads a manifest naming unwritten files.
  const tmp = path.join(out, 'manifest.json.tmp');
  await writeFile(tmp, JSON.stringify(manifest, null, 2));
  await rename(tmp, path.join(out, 'manifest.json'));
  return { manifest, outputs: result.metafile.outputs };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { outputs } = await buildUi();
  for (const [file, out] of Object.entries(outputs))
    console.log(`  ${file}  ${(out.bytes / 1024).toFixed(1)} KiB`);
}
