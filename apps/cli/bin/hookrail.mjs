#!/usr/bin/env node
// Runs the bundle (dist/hookrail.mjs). In a checkout it is built from the sources first when it is
// missing or older than a file it was built from (build.mjs; dist/ is git-ignored), so a call
// starts from one file instead of compiling TypeScript; the published package carries only it.
import { existsSync, readFileSync, statSync } from 'node:fs';

const bundle = new URL('../dist/hookrail.mjs', import.meta.url);
const inputs = new URL('../dist/hookrail.inputs.json', import.meta.url);
const checkout = existsSync(new URL('../src/main.ts', import.meta.url));

/** Whether a file the bundle was built from changed since (or went away), or there is none. */
function stale() {
  let built;
  try {
    built = statSync(bundle).mtimeMs;
    return JSON.parse(readFileSync(inputs, 'utf8')).some((file) => statSync(file).mtimeMs > built);
  } catch {
    return true;
  }
}

if (checkout && stale()) await (await import('../build.mjs')).buildCli();
await import(bundle.href);
