/**
 * The libs' layer order (tools/layers.json, explained in docs/architecture.md, "Layers") and the
 * check that every import follows it:
 * - a lib imports only libs of lower layers (never one of its own layer, never a higher one);
 * - a test-only lib (testkit) may import any lib, and only test code imports it: spec files and
 *   their support (files under a testing/ folder, `*fixtures.ts`);
 * - no lib imports a service, and no service's production code imports another service;
 * - a service's browser code (`services/<name>/ui`) imports only the libs of BROWSER_LIBS and no
 *   server code: what it bundles runs in the browser;
 * - an application of apps/ (the CLI) may import any lib; only test code, bench/ and tools/ import
 *   an application;
 * - bench/ and tools/ may import any lib and any service, the libs by their package name only;
 * - a relative import never reaches into another lib (the package name is the way in);
 * - each lib's package.json lists exactly the @hookrail/* libs its code imports: production code
 *   in `dependencies`, what only its specs import in `devDependencies`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import ORDER from './layers.json';

export interface LayerOrder {
  /** Lowest first; a lib imports only libs of earlier entries. */
  layers: string[][];
  /** Libs above every layer that only test code may import. */
  testOnly: string[];
}

export interface Violation {
  /** Relative to the checked root. */
  file: string;
  line: number;
  message: string;
}

export const DECLARED_ORDER: LayerOrder = ORDER;

const LIB_IMPORT = /^@hookrail\/([a-z0-9-]+)/;

/** The libs browser code may import: the contract and its typed caller, nothing that runs on a server. */
export const BROWSER_LIBS = new Set(['api-contract']);

/** Where code lives: a lib's or a service's src/, a service's browser code, or bench/ and tools/. */
type OwnerKind = 'libs' | 'apps' | 'services' | 'ui' | 'tools';

interface SourceFile {
  file: string;
  /** `libs/<name>`, `apps/<name>`, `services/<name>` (its src/ or, as `ui`, its ui/), or `bench`/`tools`. */
  owner: { kind: OwnerKind; name: string };
  test: boolean;
  imports: { spec: string; line: number }[];
}

/** Spec files and the test support beside them: anything under a testing/ folder, fixtures. */
function isTestCode(rel: string): boolean {
  return /\.spec\.tsx?$|\/testing\/|fixtures?\.tsx?$/.test(rel);
}

/** TypeScript sources (`.ts`, `.tsx`, `.mts`, `.cts`; not declarations), outside node_modules and builds. */
function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return ['node_modules', 'dist'].includes(entry) ? [] : tsFiles(full);
    return /\.[mc]?tsx?$/.test(entry) && !/\.d\.[mc]?tsx?$/.test(entry) ? [full] : [];
  });
}

function packagesOf(root: string, kind: 'libs' | 'apps' | 'services'): string[] {
  const dir = path.join(root, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, 'package.json')))
    .sort();
}

/** Every folder of code the check reads, with whose code it is. */
function codeFolders(root: string): { dir: string; owner: SourceFile['owner'] }[] {
  return [
    ...packagesOf(root, 'libs').map((name) => ({
      dir: path.join(root, 'libs', name, 'src'),
      owner: { kind: 'libs' as const, name },
    })),
    ...packagesOf(root, 'apps').map((name) => ({
      dir: path.join(root, 'apps', name, 'src'),
      owner: { kind: 'apps' as const, name },
    })),
    ...packagesOf(root, 'services').flatMap((name) => [
      { dir: path.join(root, 'services', name, 'src'), owner: { kind: 'services' as const, name } },
      { dir: path.join(root, 'services', name, 'ui'), owner: { kind: 'ui' as const, name } },
    ]),
    ...['bench', 'tools'].map((name) => ({
      dir: path.join(root, name),
      owner: { kind: 'tools' as const, name },
    })),
  ];
}

function sources(root: string): SourceFile[] {
  return codeFolders(root).flatMap(({ dir, owner }) =>
    tsFiles(dir).map((full) => {
      const text = readFileSync(full, 'utf8');
      const rel = path.relative(root, full).split(path.sep).join('/');
      const imports = ts
        .preProcessFile(text, true, true)
        .importedFiles.map((f) => ({ spec: f.fileName, line: lineAt(text, f.pos) }));
      return { file: rel, owner, test: isTestCode(rel), imports };
    }),
  );
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Whose code a relative import lands in (a lib, a service's server code or its ui/), or null elsewhere. */
function landsIn(fromFile: string, spec: string): { kind: OwnerKind; name: string } | null {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  const m = /^(libs|apps|services)\/([^/]+)\/(?:(ui)\/)?/.exec(target);
  if (!m) return null;
  return { kind: m[3] ? 'ui' : (m[1] as 'libs' | 'apps' | 'services'), name: m[2] };
}

/** What the check knows of the packages: each lib's layer, the test-only libs, the applications. */
interface Packages {
  layerOf: Map<string, number>;
  testOnly: Set<string>;
  apps: Set<string>;
}

/** Every import against the declared order, with its file and line. */
export function checkImports(root: string, order: LayerOrder = DECLARED_ORDER): Violation[] {
  const layerOf = new Map<string, number>();
  order.layers.forEach((libs, i) => libs.forEach((lib) => layerOf.set(lib, i)));
  const known: Packages = {
    layerOf,
    testOnly: new Set(order.testOnly),
    apps: new Set(packagesOf(root, 'apps')),
  };
  const violations: Violation[] = packagesOf(root, 'libs')
    .filter((lib) => !layerOf.has(lib) && !known.testOnly.has(lib))
    .map((lib) => ({
      file: `libs/${lib}/package.json`,
      line: 1,
      message: `lib "${lib}" has no layer: add it to tools/layers.json`,
    }));
  for (const src of sources(root))
    for (const { spec, line } of src.imports) {
      const lib = LIB_IMPORT.exec(spec)?.[1];
      const target = lib || !spec.startsWith('.') ? null : landsIn(src.file, spec);
      const problem = lib
        ? packageImportProblem(src, lib, known)
        : target && relativeImportProblem(src, target);
      if (problem) violations.push({ file: src.file, line, message: problem });
    }
  return violations;
}

/** What is wrong with `src` importing `@hookrail/<name>`, if anything. */
function packageImportProblem(src: SourceFile, name: string, known: Packages): string | undefined {
  const { owner, test } = src;
  const tooling = owner.kind === 'tools';
  if (owner.kind === 'libs' && name === owner.name) return `imports its own lib "${name}" by name`;
  if (owner.kind === 'ui' && !BROWSER_LIBS.has(name))
    return `browser code imports lib "${name}" (only ${[...BROWSER_LIBS].join(', ')})`;
  if (known.apps.has(name))
    return test || tooling ? undefined : `imports application "${name}" outside test code`;
  if (known.testOnly.has(name))
    return test || tooling || known.testOnly.has(owner.name)
      ? undefined
      : `imports test-only lib "${name}" outside test code`;
  const theirs = known.layerOf.get(name);
  if (theirs === undefined) return `imports "@hookrail/${name}", which is no declared lib`;
  if (owner.kind !== 'libs' || known.testOnly.has(owner.name)) return undefined;
  const own = known.layerOf.get(owner.name)!;
  if (theirs < own) return undefined;
  return (
    `lib "${owner.name}" (layer ${own + 1}) imports "${name}" (layer ${theirs + 1}): ` +
    (theirs === own ? 'sideways' : 'upwards')
  );
}

/** What is wrong with `src` importing by a relative path into another package's code, if anything. */
function relativeImportProblem(src: SourceFile, target: SourceFile['owner']): string | undefined {
  const { owner } = src;
  if (target.kind === owner.kind && target.name === owner.name) return undefined;
  if (target.kind === 'libs' || target.kind === 'apps')
    return `reaches into ${target.kind === 'libs' ? 'lib' : 'application'} "${target.name}" by a relative path`;
  const whose = `${target.kind === 'ui' ? 'the browser code' : 'the code'} of service "${target.name}"`;
  if (owner.kind === 'libs' || owner.kind === 'apps')
    return `${owner.kind === 'libs' ? 'lib' : 'application'} imports service "${target.name}"`;
  if (owner.kind === 'ui') return `browser code imports ${whose}`;
  if (owner.kind === 'services' && !src.test) return `service imports ${whose} outside test code`;
  return undefined;
}

/** Each lib's and application's package.json against the @hookrail/* libs its code imports. */
export function checkManifests(root: string): Violation[] {
  const byLib = new Map<string, { prod: Set<string>; test: Set<string> }>();
  for (const src of sources(root)) {
    if (src.owner.kind !== 'libs' && src.owner.kind !== 'apps') continue;
    const key = `${src.owner.kind}/${src.owner.name}`;
    let used = byLib.get(key);
    if (!used) byLib.set(key, (used = { prod: new Set(), test: new Set() }));
    for (const { spec } of src.imports) {
      const lib = LIB_IMPORT.exec(spec)?.[1];
      if (lib && lib !== src.owner.name) (src.test ? used.test : used.prod).add(`@hookrail/${lib}`);
    }
  }
  const violations: Violation[] = [];
  for (const [pkg, used] of byLib) {
    const file = `${pkg}/package.json`;
    const manifest = JSON.parse(readFileSync(path.join(root, file), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const listed = (deps: Record<string, string> = {}) =>
      new Set(Object.keys(deps).filter((d) => d.startsWith('@hookrail/')));
    const testOnlyUse = new Set([...used.test].filter((d) => !used.prod.has(d)));
    const compare = (key: string, want: Set<string>, have: Set<string>) => {
      for (const d of want)
        if (!have.has(d))
          violations.push({ file, line: 1, message: `${key} lacks ${d}, which its code imports` });
      for (const d of have)
        if (!want.has(d))
          violations.push({ file, line: 1, message: `${key} lists ${d}, which its code never imports` });
    };
    compare('dependencies', used.prod, listed(manifest.dependencies));
    compare('devDependencies', testOnlyUse, listed(manifest.devDependencies));
  }
  return violations;
}

export function describeViolation(v: Violation): string {
  return `${v.file}:${v.line}: ${v.message}`;
}
