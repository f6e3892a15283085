/**
 * The values table of charts/hookrail/README.md, made from the `# -- description` comments in
 * charts/hookrail/values.yaml (the helm-docs convention). A commented key gets one row with its
 * default; an uncommented map is walked into.
 *
 *   npx tsx tools/chart-readme.ts           # exit 1 when README.md's table is stale
 *   npx tsx tools/chart-readme.ts --write   # rewrite the table
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, parseDocument, type YAMLMap } from 'yaml';

export const chartDir = path.resolve(__dirname, '../charts/hookrail');
const START = '<!-- values:start -->';
const END = '<!-- values:end -->';

export interface ValueRow {
  key: string;
  type: string;
  default: string;
  description: string;
}

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v;
}

/** The documented keys of a values file, in file order. */
export function valueRows(yamlText: string): ValueRow[] {
  const doc = parseDocument(yamlText);
  const rows: ValueRow[] = [];
  const walk = (map: YAMLMap, prefix: string) => {
    map.items.forEach((pair, i) => {
      const keyNode = pair.key;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
      const full = prefix ? `${prefix}.${key}` : key;
      // The comment above a map's first key is kept on the map itself.
      const comment =
        (isScalar(keyNode) ? keyNode.commentBefore : undefined) ??
        (i === 0 ? map.commentBefore : undefined) ??
        '';
      const doc = comment
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('-- '));
      if (doc.length > 0) {
        const value = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? null;
        rows.push({
          key: full,
          type: typeOf(value),
          default: JSON.stringify(value),
          description: doc.map((l) => l.slice(3)).join(' '),
        });
      } else if (isMap(pair.value)) {
        walk(pair.value, full);
      } else {
        throw new Error(`values.yaml: ${full} has no "# -- description" comment`);
      }
    });
  };
  if (!isMap(doc.contents)) throw new Error('values.yaml is not a map');
  walk(doc.contents, '');
  return rows;
}

export function valuesTable(rows: ValueRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| Key | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| \`${r.key}\` | ${r.type} | \`${cell(r.default)}\` | ${cell(r.description)} |`),
  ].join('\n');
}

/** README.md with its table between the markers replaced by a fresh one. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} ... ${END} section`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

if (require.main === module) {
  const readmePath = path.join(chartDir, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const fresh = withTable(
    readme,
    valuesTable(valueRows(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8'))),
  );
  if (process.argv.includes('--write')) {
    writeFileSync(readmePath, fresh);
  } else if (fresh !== readme) {
    console.error('charts/hookrail/README.md is stale: run npx tsx tools/chart-readme.ts --write');
    process.exit(1);
  }
}
