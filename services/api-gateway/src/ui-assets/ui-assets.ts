import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';

/** The pages built by tools/build-ui.mjs from services/api-gateway/ui. */
export type UiPage = 'console' | 'portal';
type Manifest = Record<UiPage, { js: string; css: string | null }>;

/**
 * services/api-gateway/dist/ui: next to the service bundle (dist/main.js) or, running from the
 * sources (tests, tsx), two folders up from this one.
 */
const UI_DIR = [path.join(__dirname, 'ui'), path.resolve(__dirname, '../../dist/ui')].find((dir) =>
  existsSync(path.join(dir, 'manifest.json')),
);
const MISSING = 'the console and portal bundles are missing: run `node tools/build-ui.mjs`';

let manifest: Manifest | undefined;
function readManifest(): Manifest {
  if (!UI_DIR) throw new Error(MISSING);
  manifest ??= JSON.parse(readFileSync(path.join(UI_DIR, 'manifest.json'), 'utf8')) as Manifest;
  return manifest;
}

/** The hashed file names of a page's script and stylesheet. */
export const uiBundle = (page: UiPage) => readManifest()[page];

/**
 * A page's HTML: an empty root for its Preact app, its stylesheet and script by their hashed names
 * under `assetPath` (served immutable: a deploy's new names are the cache busting). Nothing
 * inline, so the pages' content security policy allows no inline script or style.
 */
export function uiPageHtml(page: UiPage, title: string, assetPath: string): string {
  const { js, css } = uiBundle(page);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${css ? `<link rel="stylesheet" href="${assetPath}/${css}">\n` : ''}</head>
<body>
<div id="root"></div>
<noscript>This page needs JavaScript.</noscript>
<script src="${assetPath}/${js}"></script>
</body>
</html>
`;
}

/** Serves the bundles: content-hashed names, so cached for a year and never revalidated. */
export function uiAssets(): RequestHandler {
  if (!UI_DIR) return (_req, res) => void res.status(503).type('text').send(MISSING);
  return express.static(path.join(UI_DIR, 'assets'), {
    immutable: true,
    maxAge: 365 * 24 * 3600_000,
    index: false,
    setHeaders: (res) => res.setHeader('x-content-type-options', 'nosniff'),
  });
}
