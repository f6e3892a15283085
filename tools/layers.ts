/**
 * The libs' layer order (tools/layers.json, explained in docs/architecture.md, "Layers") and the
 * check that every import follows it:
 * - a lib imports only libs of lower layers (never one of its own layer, never a higher one);
 * - a test-only lib (testkit) may import any lib, and only test code imports it: spec files and
 *   their support (files under a testing/ folder, `*fixtures.ts`);
 * - no lib imports a service, and no service's production code imports another service;
 * - a relative import never reaches into another lib or a service (the package name is the way in);
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

interface SourceFile {
  file: string;
  /** `libs/<name>` or `services/<name>`. */
  owner: { kind: 'libs' | 'services'; name: string };
  test: boolean;
  imports: { spec: string; line: number }[];
}

/** Spec files and the test support beside them: anything under a testing/ folder, fixtures. */
function isTestCode(rel: string): boolean {
  return /\.spec\.ts$|\/testing\/|fixtures?\.ts$/.test(rel);
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'node_modules' ? [] : tsFiles(full);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

function packagesOf(root: string, kind: 'libs' | 'services'): string[] {
  const dir = path.join(root, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, 'package.json')))
    .sort();
}

function sources(root: string): SourceFile[] {
  return (['libs', 'services'] as const).flatMap((kind) =>
    packagesOf(root, kind).flatMap((name) =>
      tsFiles(path.join(root, kind, name, 'src')).map((full) => {
        const text = readFileSync(full, 'utf8');
        const rel = path.relative(root, full).split(path.sep).join('/');
        const imports = ts
          .preProcessFile(text, true, true)
          .importedFiles.map((f) => ({ spec: f.fileName, line: lineAt(text, f.pos) }));
        return { file: rel, owner: { kind, name }, test: isTestCode(rel), imports };
      }),
    ),
  );
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The package a relative import lands in (`libs/x`, `services/y`), or null outside both. */
function landsIn(fromFile: string, spec: string): { kind: string; name: string } | null {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  const m = /^(libs|services)\/([^/]+)\//.exec(target);
  return m ? { kind: m[1], name: m[2] } : null;
}

/** Every import against the declared order, with its file and line. */
export function checkImports(root: string, order: LayerOrder = DECLARED_ORDER): Violation[] {
  const layerOf = new Map<string, number>();
  order.layers.forEach((libs, i) => libs.forEach((lib) => layerOf.set(lib, i)));
  const testOnly = new Set(order.testOnly);
  const violations: Violation[] = [];

  for (const lib of packagesOf(root, 'libs'))
    if (!layerOf.has(lib) && !testOnly.has(lib))
      violations.push({
        file: `libs/${lib}/package.json`,
        line: 1,
        message: `lib "${lib}" has no layer: add it to tools/layers.json`,
      });

  for (const src of sources(root)) {
    const { owner } = src;
    const report = (line: number, message: string) => violations.push({ file: src.file, line, message });
    for (const { spec, line } of src.imports) {
      const lib = LIB_IMPORT.exec(spec)?.[1];
      if (lib) {
        if (owner.kind === 'libs' && lib === owner.name) report(line, `imports its own lib "${lib}" by name`);
        else if (testOnly.has(lib)) {
          if (!src.test && !testOnly.has(owner.name))
            report(line, `imports test-only lib "${lib}" outside test code`);
        } else if (!layerOf.has(lib)) report(line, `imports "${spec}", which is no declared lib`);
        else if (owner.kind === 'libs' && !testOnly.has(owner.name)) {
          const own = layerOf.get(owner.name)!;
          const theirs = layerOf.get(lib)!;
          if (theirs >= own)
            report(
              line,
              `lib "${owner.name}" (layer ${own + 1}) imports "${lib}" (layer ${theirs + 1}): ` +
                (theirs === own ? 'sideways' : 'upwards'),
            );
        }
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = landsIn(src.file, spec);
      if (!target || (target.kind === owner.kind && target.name === owner.name)) continue;
      if (target.kind === 'libs') report(line, `reaches into lib "${target.name}" by a relative path`);
      else if (owner.kind === 'libs') report(line, `lib imports service "${target.name}"`);
      else if (!src.test) report(line, `service imports service "${target.name}" outside test code`);
    }
  }
  return violations;
}

/** Each lib's package.json against the @hookrail/* libs its code imports. */
export function checkManifests(root: string): Violation[] {
  const byLib = new Map<string, { prod: Set<string>; test: Set<string> }>();
  for (const src of sources(root)) {
    if (src.owner.kind !== 'libs') continue;
    let used = byLib.get(src.owner.name);
    if (!used) byLib.set(src.owner.name, (used = { prod: new Set(), test: new Set() }));
    for (const { spec } of src.imports) {
      const lib = LIB_IMPORT.exec(spec)?.[1];
      if (lib && lib !== src.owner.name) (src.test ? used.test : used.prod).add(`@hookrail/${lib}`);
    }
  }
  const violations: Violation[] = [];
  for (const [lib, used] of byLib) {
    const file = `libs/${lib}/package.json`;
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
