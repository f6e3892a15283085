import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chartDir, valueRows, valuesTable, withTable } from './chart-readme';

const read = (f: string) => readFileSync(path.join(chartDir, f), 'utf8');

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

describe('chart README values table (tools/chart-readme.ts)', () => {
  it('turns "# --" comments into rows and walks into maps without one', () => {
    const rows = valueRows('a:\n  # -- first\n  b: 1\n  # -- second\n  # continued\n  c: { d: x }\n');
    expect(rows).toEqual([
      { key: 'a.b', type: 'int', default: '1', description: 'first' },
      { key: 'a.c', type: 'object', default: '{"d":"x"}', description: 'second' },
    ]);
    expect(() => valueRows('a:\n  b: 1\n')).toThrow('values.yaml: a.b has no "# -- description" comment');
  });

  it('is up to date with values.yaml', () => {
    const readme = read('README.md');
    expect(withTable(readme, valuesTable(valueRows(read('values.yaml'))))).toBe(readme);
  });

  it('documents only keys that values.schema.json knows', () => {
    const schema = JSON.parse(read('values.schema.json')) as JsonSchema;
    const resolve = (s: JsonSchema) => (s.$ref ? schema.$defs![s.$ref.replace('#/$defs/', '')] : s);
    const unknown = valueRows(read('values.yaml'))
      .map((r) => r.key)
      .filter((key) => {
        let s: JsonSchema | undefined = schema;
        for (const part of key.split('.')) s = s && resolve(s).properties?.[part];
        return s === undefined;
      });
    expect(unknown).toEqual([]);
  });
});
