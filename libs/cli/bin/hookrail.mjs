#!/usr/bin/env node
// A checkout runs the sources (through tsx, a dev dependency of the repository); the published
// package carries no sources, only the bundle `npm pack` builds (build.mjs → dist/).
import { existsSync } from 'node:fs';

const sources = new URL('../src/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(sources.href, import.meta.url);
} else {
  await import(new URL('../dist/hookrail.mjs', import.meta.url).href);
}
