import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkDocuments, DECISIONS_MAX_LINES, documents, expandIncludes } from './doc-check';

describe('documentation references (tools/doc-check.ts)', () => {
  it('README.md, CONTRIBUTING.md, docs/*.md and deploy/local/README.md reference only files of the repository', () => {
    expect(documents()).toEqual(
      expect.arrayContaining(['README.md', 'docs/verifying-webhooks.md', 'deploy/local/README.md']),
    );
    expect(checkDocuments()).toEqual([]);
  });

  describe('on a repository of its own', () => {
    let base: string;
    beforeEach(() => {
      base = mkdtempSync(path.join(tmpdir(), 'doc-check-'));
      for (const dir of ['docs', 'deploy/local', 'libs/store'])
        mkdirSync(path.join(base, dir), { recursive: true });
      writeFileSync(path.join(base, 'docs/a.md'), '# a\n');
      writeFileSync(path.join(base, 'deploy/local/README.md'), 'see `libs/store` and [a](../../docs/a.md)\n');
      writeFileSync(path.join(base, 'libs/store/x.js'), 'one\n');
    });
    afterEach(() => rmSync(base, { recursive: true, force: true }));

    it('accepts existing links and paths, runtime state and placeholders', () => {
      writeFileSync(
        path.join(base, 'README.md'),
        '[a](docs/a.md#top) [web](https://example.com) `libs/store/x.js` `.local/stack.json` `libs/<name>`\n',
      );
      expect(checkDocuments(base)).toEqual([]);
    });

    it('reports missing files and paths outside the repository, in links, code and prose', () => {
      writeFileSync(
        path.join(base, 'README.md'),
        [
          '[gone](docs/gone.md)',
          '[out](../elsewhere/notes.md)',
          'run `bash deploy/local/missing.sh start`',
          '```bash\ncat libs/store/nope.ts\n```',
          'sibling scripts live in ../sibling/tools',
        ].join('\n'),
      );
      expect(checkDocuments(base).map((p) => p.message)).toEqual([
        'mentions ../sibling/tools, which is outside the repository',
        'link docs/gone.md: no such file',
        'link ../elsewhere/notes.md points outside the repository',
        'libs/store/nope.ts: no such file or directory',
        'deploy/local/missing.sh: no such file or directory',
      ]);
    });

    it("reports a service, lib or application that README.md's Layout table leaves out, and a stray at the root", () => {
      mkdirSync(path.join(base, 'apps/cli'), { recursive: true });
      writeFileSync(path.join(base, 'libs/store/package.json'), '{}');
      writeFileSync(path.join(base, 'apps/cli/package.json'), '{}');
      writeFileSync(path.join(base, 'package.json'), '{}');
      writeFileSync(path.join(base, 'oom'), '');
      mkdirSync(path.join(base, 'node_modules'));
      writeFileSync(
        path.join(base, 'README.md'),
        '## Layout\n\n| path | what |\n| --- | --- |\n| `libs/store` | the store |\n| `docs/` | docs |\n| `deploy/local` | scripts |\n\n## Next\n\n`apps/cli`\n',
      );
      expect(checkDocuments(base).map((p) => `${p.file}: ${p.message}`)).toEqual([
        'README.md: the Layout table has no row for apps/cli',
        'README.md: the root holds apps, which no row of the Layout table names (add a row, or remove it)',
        'README.md: the root holds oom, which no row of the Layout table names (add a row, or remove it)',
      ]);
    });

    it('reports a docs/decisions.md grown past its budget', () => {
      writeFileSync(path.join(base, 'README.md'), '# r\n');
      writeFileSync(path.join(base, 'docs/decisions.md'), '- a decision\n'.repeat(DECISIONS_MAX_LINES));
      expect(checkDocuments(base)).toEqual([]);
      writeFileSync(path.join(base, 'docs/decisions.md'), '- a decision\n'.repeat(DECISIONS_MAX_LINES + 1));
      expect(checkDocuments(base).map((p) => p.message)).toEqual([
        `${DECISIONS_MAX_LINES + 1} lines, over ${DECISIONS_MAX_LINES}: keep each decision to what, why and its cost, and move run-by-run figures to bench/RESULTS.md`,
      ]);
    });

    it('reports an included code block that differs from its file, and --write refreshes it', () => {
      const stale = '<!-- include: libs/store/x.js -->\n\n```js\nold\n```\n';
      writeFileSync(path.join(base, 'docs/a.md'), stale);
      writeFileSync(path.join(base, 'README.md'), '# r\n');
      expect(checkDocuments(base).map((p) => `${p.file}: ${p.message}`)).toEqual([
        'docs/a.md: an included code block differs from its file: run npx tsx tools/doc-check.ts --write',
      ]);
      const fresh = expandIncludes(stale, base);
      expect(fresh).toBe('<!-- include: libs/store/x.js -->\n\n```js\none\n```\n');
      expect(expandIncludes(fresh, base)).toBe(fresh);
      expect(expandIncludes('<!-- include: libs/store/x.js -->\n', base)).toBe(fresh);
    });
  });
});
