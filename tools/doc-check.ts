/**
 * Checks the documentation against the repository:
 * - every relative link and every repository path in README.md, CONTRIBUTING.md, docs/*.md and deploy/local/README.md
 *   names a file or directory that exists, and none points outside the repository;
 * - README.md's Layout table has a row for every service, lib and application (each directory of
 *   services/, libs/ and apps/ with a package.json), and the root holds only the directories its
 *   rows start with and the project files of ROOT_FILES;
 * - docs/decisions.md stays a record of decisions, under DECISIONS_MAX_LINES (figures of runs go
 *   to bench/RESULTS.md);
 * - every `<!-- include: path -->` in those files is followed by a code block holding exactly that
 *   file, so the verifiers shown in docs/verifying-webhooks.md are the ones the tests run.
 *
 *   npx tsx tools/doc-check.ts           # report problems, exit 1 if any
 *   npx tsx tools/doc-check.ts --write   # refresh the included code blocks first
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(__dirname, '..');

/** The documents checked, relative to the root. */
export function documents(base = root): string[] {
  const docs = readdirSync(path.join(base, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs, 'deploy/local/README.md'].filter((f) =>
    existsSync(path.join(base, f)),
  );
}

const FENCE_LANG: Record<string, string> = {
  '.js': 'js',
  '.ts': 'ts',
  '.py': 'python',
  '.go': 'go',
  '.sh': 'bash',
};
const INCLUDE = /<!-- include: (\S+) -->\n(?:\n?(````?)[a-z]*\n[\s\S]*?\n\2\n)?/g;

/** The document with every include marker followed by a fresh code block of its file. */
export function expandIncludes(markdown: string, base = root): string {
  return markdown.replace(INCLUDE, (_m, file: string) => {
    const text = readFileSync(path.join(base, file), 'utf8').replace(/\n$/, '');
    const fence = text.includes('```') ? '````' : '```';
    return `<!-- include: ${file} -->\n\n${fence}${FENCE_LANG[path.extname(file)] ?? ''}\n${text}\n${fence}\n`;
  });
}

/** Links `[text](target)` whose target is a relative path (not a URL, an anchor or an e-mail). */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1].split('#')[0])
    .filter((t) => t !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/**
 * Words inside code spans and code blocks that name a repository path: they start with one of the
 * repository's top-level directories (or `../`) and carry no placeholder (`<name>`, `*`, `{id}`, `$X`).
 */
function pathWords(markdown: string, topLevel: Set<string>): string[] {
  const code = [
    ...[...markdown.matchAll(/^(````?)[^\n]*\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]),
    ...[...markdown.replace(/^(````?)[^\n]*\n[\s\S]*?\n\1$/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
  ];
  const words: string[] = [];
  for (const text of code) {
    for (const raw of text.split(/[\s|,;()[\]'"=]+/)) {
      const word = raw.replace(/[.:]+$/, '');
      if (!word.includes('/') || /[<>*{}$~@…\\]/.test(word) || word.includes('://')) continue;
      if (word.startsWith('../') || topLevel.has(word.split('/')[0])) words.push(word);
    }
  }
  return words;
}

export interface Problem {
  file: string;
  message: string;
}

/** Everything wrong with the documents under `base` (the repository root by default). */
export function checkDocuments(base = root): Problem[] {
  const problems: Problem[] = [];
  const topLevel = new Set(
    readdirSync(base, { withFileTypes: true })
      // git-ignored outputs (a local build's dist/) are not part of the repository
      .filter((d) => d.isDirectory() && !['node_modules', '.git', '.local', '.nx', 'dist'].includes(d.name))
      .map((d) => d.name),
  );
  const inside = (abs: string) => abs === base || abs.startsWith(base + path.sep);
  for (const file of documents(base)) {
    const markdown = readFileSync(path.join(base, file), 'utf8');
    const dir = path.dirname(path.join(base, file));
    // A relative path in prose that climbs out of the repository (links and code are checked below).
    const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    for (const m of prose.matchAll(/(?:^|\s)(\.\.\/[\w./-]+)/g)) {
      const abs = path.resolve(dir, m[1]);
      if (!inside(abs) && !inside(path.resolve(base, m[1])))
        problems.push({ file, message: `mentions ${m[1]}, which is outside the repository` });
    }
    for (const target of linkTargets(markdown)) {
      const abs = path.resolve(dir, decodeURIComponent(target));
      if (!inside(abs)) problems.push({ file, message: `link ${target} points outside the repository` });
      else if (!existsSync(abs)) problems.push({ file, message: `link ${target}: no such file` });
    }
    for (const word of pathWords(markdown, topLevel)) {
      const fromRoot = path.resolve(base, word);
      const fromDoc = path.resolve(dir, word);
      if (!inside(fromRoot) || !inside(fromDoc))
        problems.push({ file, message: `${word} points outside the repository` });
      else if (!existsSync(fromRoot) && !existsSync(fromDoc))
        problems.push({ file, message: `${word}: no such file or directory` });
    }
    if (file === 'README.md') problems.push(...layoutProblems(markdown, base));
    if (file === 'docs/decisions.md') problems.push(...decisionsLength(markdown));
    if (expandIncludes(markdown, base) !== markdown)
      problems.push({
        file,
        message: 'an included code block differs from its file: run npx tsx tools/doc-check.ts --write',
      });
  }
  return problems;
}

/** docs/decisions.md's budget: past it, the record is turning into a lab notebook again. */
export const DECISIONS_MAX_LINES = 820;

function decisionsLength(markdown: string): Problem[] {
  const lines = markdown.split('\n').length - 1;
  return lines <= DECISIONS_MAX_LINES
    ? []
    : [
        {
          file: 'docs/decisions.md',
          message: `${lines} lines, over ${DECISIONS_MAX_LINES}: keep each decision to what, why and its cost, and move run-by-run figures to bench/RESULTS.md`,
        },
      ];
}

/** The files (and dot-folders) the root may hold besides the directories of the Layout table. */
const ROOT_FILES = [
  /^(README|CONTRIBUTING)\.md$/,
  /^LICENSE$/,
  /^package(-lock)?\.json$/,
  /^(nx|knip|tsconfig(\.base)?)\.json$/,
  /^(eslint\.config\.mjs|jest\.[a-z0-9-]+\.js)$/,
  /^\.(gitignore|prettierrc\.json|prettierignore|swcrc|ci|githooks)$/,
];

/** What the root holds that git ignores (installs, builds, run state): never checked. */
const IGNORED_AT_ROOT =
  /^(node_modules|\.git|\.local|\.nx|dist|coverage|test-artifacts)$|\.(log|tsbuildinfo)$/;

/**
 * README.md's Layout table against the tree: a row for each service, lib and application (a
 * directory of services/, libs/ or apps/ with a package.json), and nothing at the root that no row
 * starts with, unless it is a project file of ROOT_FILES.
 */
function layoutProblems(readme: string, base: string): Problem[] {
  const section = /^## Layout\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (section === undefined) return [];
  const rows = new Set([...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1].replace(/\/$/, '')));
  const tops = new Set([...rows].map((r) => r.split('/')[0]));
  const missingRows = ['services', 'libs', 'apps']
    .filter((top) => existsSync(path.join(base, top)))
    .flatMap((top) =>
      readdirSync(path.join(base, top), { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(path.join(base, top, d.name, 'package.json')))
        .map((d) => `${top}/${d.name}`),
    )
    .filter((dir) => !rows.has(dir))
    .map((dir) => `the Layout table has no row for ${dir}`);
  const strays = readdirSync(base)
    .filter((name) => !IGNORED_AT_ROOT.test(name) && !tops.has(name) && !ROOT_FILES.some((f) => f.test(name)))
    .map(
      (name) => `the root holds ${name}, which no row of the Layout table names (add a row, or remove it)`,
    );
  return [...missingRows, ...strays].map((message) => ({ file: 'README.md', message }));
}

if (require.main === module) {
  if (process.argv.includes('--write')) {
    for (const file of documents()) {
      const abs = path.join(root, file);
      const before = readFileSync(abs, 'utf8');
      const after = expandIncludes(before);
      if (after !== before) {
        writeFileSync(abs, after);
        console.log(`updated ${file}`);
      }
    }
  }
  const problems = checkDocuments();
  for (const p of problems) console.error(`${p.file}: ${p.message}`);
  process.exit(problems.length ? 1 : 0);
}
