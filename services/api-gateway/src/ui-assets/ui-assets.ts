import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Response } from 'express';

/** The pages built by tools/build-ui.mjs from services/api-gateway/ui. */
type UiPage = 'console' | 'portal';
type Manifest = Record<UiPage, { js: string; css: string | null }>;

/**
 * dist/ui next to the service bundle (tools/build-services.mjs) or, running from the sources
 * (tests, tsx), services/api-gateway/dist/ui (tools/build-ui.mjs), two folders up from this one.
 */
const UI_DIR = [path.join(__dirname, 'ui'), path.resolve(__dirname, '../../dist/ui')].find((dir) =>
  existsSync(path.join(dir, 'manifest.json')),
);
const MISSING = 'the console and portal bundles are missing: run `node tools/build-ui.mjs`';

let manifest: Manifest | undefined;
function readManifest(): Manifest | undefined {
  if (UI_DIR) manifest ??= JSON.parse(readFileSync(path.join(UI_DIR, 'manifest.json'), 'utf8')) as Manifest;
  return manifest;
}

/**
 * A page's HTML: an empty root for its Preact app, its stylesheet and script by their hashed names
 * under `assetPath` (served immutable: a deploy's new names are the cache busting). Nothing
 * inline, so the pages' content security policy allows no inline script or style.
 */
function pageHtml({ js, css }: Manifest[UiPage], title: string, assetPath: string): string {
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

/** Answers with a page (`headers`: its security headers), or 503 saying how to build it. */
export function sendUiPage(
  res: Response,
  page: UiPage,
  title: string,
  assetPath: string,
  headers: Record<string, string>,
): void {
  const bundle = readManifest()?.[page];
  if (!bundle) {
    res.status(503).type('text').send(MISSING);
    return;
  }
  res
    .set(headers)
    .type('html')
    .send(pageHtml(bundle, title, assetPath));
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
