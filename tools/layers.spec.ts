import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkImports, checkManifests, DECLARED_ORDER, describeViolation, type LayerOrder } from './layers';

const root = path.resolve(__dirname, '..');

describe('the libs depend downward only', () => {
  it('every import in libs/ and services/ follows the declared layer order', () => {
    expect(checkImports(root).map(describeViolation)).toEqual([]);
  });

  it("each lib's package.json lists exactly the @hookrail/* libs its code imports", () => {
    expect(checkManifests(root).map(describeViolation)).toEqual([]);
  });

  it('docs/architecture.md shows the order of tools/layers.json', () => {
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    expect(doc).toContain('tools/layers.json');
    const rows = [...doc.matchAll(/^\| (\d+|test only) \| ((?:`[a-z-]+`(?:, )?)+) \|/gm)].map((m) =>
      [...m[2].matchAll(/`([a-z-]+)`/g)].map((l) => l[1]),
    );
    expect(rows).toEqual([...DECLARED_ORDER.layers, DECLARED_ORDER.testOnly]);
  });
});

describe('the layer check', () => {
  const order: LayerOrder = { layers: [['low'], ['mid', 'side'], ['high']], testOnly: ['kit'] };
  let dir: string;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const lib = (name: string, deps: string[] = [], devDeps: string[] = []) =>
    write(
      `libs/${name}/package.json`,
      JSON.stringify({
        name: `@hookrail/${name}`,
        dependencies: Object.fromEntries(deps.map((d) => [`@hookrail/${d}`, '*'])),
        devDependencies: Object.fromEntries(devDeps.map((d) => [`@hookrail/${d}`, '*'])),
      }),
    );

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'layers-'));
    for (const name of ['low', 'mid', 'side', 'high', 'kit']) lib(name);
    write('services/svc/package.json', '{"name":"svc"}');
    write('services/other/package.json', '{"name":"other"}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts downward imports, testkit in specs and test support, and services importing libs', () => {
    write('libs/high/src/a.ts', "import { x } from '@hookrail/mid';\nexport * from '@hookrail/low';\n");
    write(
      'libs/mid/src/a.spec.ts',
      "import { kit } from '@hookrail/kit';\nimport { low } from '@hookrail/low';\n",
    );
    write('libs/kit/src/index.ts', "import { high } from '@hookrail/high';\n");
    write('services/svc/src/main.ts', "import { high } from '@hookrail/high';\n");
    write('services/svc/src/testing/harness.ts', "import { d } from '../../../other/src/service';\n");
    expect(checkImports(dir, order)).toEqual([]);
  });

  it('reports an upward or sideways import with its file and line', () => {
    write(
      'libs/mid/src/a.ts',
      "import type { T } from '@hookrail/low';\n\nimport { h } from '@hookrail/high';\n",
    );
    write('libs/side/src/b.ts', "export { m } from '@hookrail/mid';\n");
    expect(checkImports(dir, order).map(describeViolation)).toEqual([
      'libs/mid/src/a.ts:3: lib "mid" (layer 2) imports "high" (layer 3): upwards',
      'libs/side/src/b.ts:1: lib "side" (layer 2) imports "mid" (layer 2): sideways',
    ]);
  });

  it('reports testkit outside test code, relative reaches into a lib or a service, and undeclared libs', () => {
    write('libs/low/src/a.ts', "import { kit } from '@hookrail/kit';\n");
    write(
      'libs/high/src/b.ts',
      "import { m } from '../../mid/src/m';\nimport { s } from '../../../services/svc/src/x';\n",
    );
    write('services/svc/src/c.ts', "import { o } from '../../other/src/service';\n");
    lib('stray');
    expect(checkImports(dir, order).map(describeViolation)).toEqual([
      'libs/stray/package.json:1: lib "stray" has no layer: add it to tools/layers.json',
      'libs/high/src/b.ts:1: reaches into lib "mid" by a relative path',
      'libs/high/src/b.ts:2: lib imports service "svc"',
      'libs/low/src/a.ts:1: imports test-only lib "kit" outside test code',
      'services/svc/src/c.ts:1: service imports the code of service "other" outside test code',
    ]);
  });

  it('lets an application import any lib, and only test code, bench/ and tools/ import an application', () => {
    write('apps/tool/package.json', '{"name":"@hookrail/tool"}');
    write(
      'apps/tool/src/main.ts',
      "import { h } from '@hookrail/high';\nimport { l } from '../../../libs/low/src/x';\n",
    );
    write('services/svc/src/run.ts', "import { t } from '@hookrail/tool';\n");
    write('services/svc/src/run.int.spec.ts', "import { t } from '@hookrail/tool';\n");
    write(
      'tools/demo.ts',
      "import { t } from '@hookrail/tool';\nimport { m } from '../apps/tool/src/main';\n",
    );
    expect(checkImports(dir, order).map(describeViolation)).toEqual([
      'apps/tool/src/main.ts:2: reaches into lib "low" by a relative path',
      'services/svc/src/run.ts:1: imports application "tool" outside test code',
      'tools/demo.ts:2: reaches into application "tool" by a relative path',
    ]);
  });

  it('reads .tsx too, and holds browser code, bench/ and tools/ to their rules', () => {
    write('libs/low/src/view.tsx', "import { h } from '@hookrail/high';\n");
    write('services/svc/ui/App.tsx', "import { c } from '@hookrail/low';\nimport { v } from './view';\n");
    write(
      'services/svc/ui/view.tsx',
      "import { s } from '../src/store';\nimport { o } from '../../other/ui/x';\n",
    );
    write(
      'bench/run.bench.ts',
      "import { k } from '@hookrail/kit';\nimport { d } from '../services/svc/src/service';\n",
    );
    write('tools/check.ts', "import { l } from '../libs/low/src/index';\n");
    expect(checkImports(dir, order).map(describeViolation)).toEqual([
      'libs/low/src/view.tsx:1: lib "low" (layer 1) imports "high" (layer 3): upwards',
      'services/svc/ui/App.tsx:1: browser code imports lib "low" (only api-contract)',
      'services/svc/ui/view.tsx:1: browser code imports the code of service "svc"',
      'services/svc/ui/view.tsx:2: browser code imports the browser code of service "other"',
      'tools/check.ts:1: reaches into lib "low" by a relative path',
    ]);
  });

  it('reports a package.json that lists more or fewer libs than the code imports', () => {
    lib('high', ['low', 'side'], []);
    write(
      'libs/high/src/a.ts',
      "import { low } from '@hookrail/low';\nimport { mid } from '@hookrail/mid';\n",
    );
    write('libs/high/src/a.spec.ts', "import { kit } from '@hookrail/kit';\n");
    expect(checkManifests(dir).map(describeViolation)).toEqual([
      'libs/high/package.json:1: dependencies lacks @hookrail/mid, which its code imports',
      'libs/high/package.json:1: dependencies lists @hookrail/side, which its code never imports',
      'libs/high/package.json:1: devDependencies lacks @hookrail/kit, which its code imports',
    ]);
  });
});
