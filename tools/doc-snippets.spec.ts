import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { documents, root } from './doc-check';

/**
 * Every shell block of the README and the docs, by its first command, with the test that runs it
 * as pasted, or why no test of this suite does (it starts or stops the local servers, builds an
 * image or needs a cluster and a registry). A new block fails this test until it is added here, so
 * a pasted snippet nobody runs is a decision written down, not an oversight (issue 33: "every
 * documented snippet must work when pasted").
 */
const SNIPPETS: Record<string, { runBy: string } | { notRun: string }> = {
  'README.md: npm start': {
    notRun:
      'the foreground start and the whole suite: deploy/local/up.int.spec.ts runs npm start (deploy/local/up.sh) detached; npm test is deploy/local/test.sh, every spec of this suite',
  },
  'README.md: npm start -- --detach': {
    notRun:
      'npm start starts the shared servers; deploy/local/up.int.spec.ts runs deploy/local/up.sh --detach, and tools/demo.int.spec.ts runs npm run demo against a stack',
  },
  'README.md: API=http://127.0.0.1:8080/api': { runBy: 'tools/readme-quickstart.int.spec.ts' },
  'README.md: CDC=$P/sources/$(curl -s "${H[@]}" $P/sources -d \'{"name": "shop-cdc", "type": "db_change_stream", "db_change_stream":':
    { runBy: 'tools/readme-cdc.int.spec.ts' },
  'docs/kubernetes.md: docker build -f deploy/docker/Dockerfile -t registry.example.com/hookrail:0.1.0 .': {
    notRun:
      'needs a Docker engine and a registry; deploy/docker/build.sh (npm run image) builds the same Dockerfile with podman and deploy/docker/services.image.spec.ts runs it',
  },
  'docs/kubernetes.md: npm run image': {
    notRun:
      'deploy/docker/services.image.spec.ts (the image phase of npm test) builds it with deploy/docker/build.sh; the push needs a registry',
  },
  'docs/kubernetes.md: docker build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -f deploy/docker/Dockerfile -t hookrail .':
    {
      notRun:
        'needs a Docker engine behind a TLS-intercepting proxy; the same Dockerfile, its CA secret empty, is built by deploy/docker/build.sh and run by deploy/docker/services.image.spec.ts',
    },
  'docs/kubernetes.md: HOOKRAIL_ADMIN_KEY=hr_admin.$(openssl rand -hex 24) HOOKRAIL_ENCRYPTION_KEY=$(openssl rand -hex 32) \\':
    {
      notRun:
        'needs Docker Compose (the doc says it is not exercised in CI); the image it runs is run against Kafka and the MongoDB-protocol server by deploy/docker/services.image.spec.ts',
    },
  'docs/kubernetes.md: kubectl create secret generic hookrail-keys \\': {
    notRun:
      'needs a cluster; charts/hookrail/chart.int.spec.ts renders the chart reading these Secrets, deploy/k8s/chart.k8s.spec.ts installs it with the keys in its values',
  },
  'docs/kubernetes.md: helm install hookrail charts/hookrail -n hookrail --create-namespace -f my-values.yaml':
    {
      notRun:
        'needs a cluster and the reader’s values; deploy/k8s/chart.k8s.spec.ts runs helm install and helm test with its own',
    },
  'docs/cli.md: npx hookrail login --url http://localhost:8080 --api-key "$PROJECT_KEY"': {
    runBy: 'services/api-gateway/src/cli/hookrail-cli.int.spec.ts',
  },
  'docs/cli.md: LOG=$(mktemp)': {
    runBy: 'services/api-gateway/src/cli/hookrail-listen.int.spec.ts',
  },
  'deploy/local/README.md: bash deploy/local/servers.sh start': {
    notRun:
      'starts, stops and provisions the shared servers; jest.global-setup.js runs servers.sh start before every integration run (deploy/local/servers.sh)',
  },
};

/** The repository files a `notRun` reason names (paths with a directory and an extension). */
const namedFiles = (reason: string) =>
  [...reason.matchAll(/[\w.-]+(?:\/[\w.-]+)+\.(?:ts|js|sh)\b/g)].map((m) => m[0]);

/** `file: first command` of each ```bash/sh block (comments and blank lines skipped). */
function shellBlocks(): string[] {
  return documents().flatMap((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    return [...text.matchAll(/^(````?)(?:bash|sh|shell|console)\n([\s\S]*?)\n\1$/gm)].map((m) => {
      const first = m[2].split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
      return `${file}: ${first.replace(/\s+#.*$/, '').trim()}`;
    });
  });
}

/** The commands the documents give inline (`npm run x`, `node|bash|npx tsx <file> …`), with their file. */
function inlineCommands(): { file: string; command: string }[] {
  return documents().flatMap((file) =>
    [...readFileSync(path.join(root, file), 'utf8').matchAll(/`((?:npm run|npx tsx|node|bash) [^`]+)`/g)].map(
      (m) => ({ file, command: m[1] }),
    ),
  );
}

/**
 * A bundle `dist/<name>.js` is written by tools/build-services.mjs, so a clean checkout has none
 * until a test builds it: it counts when that script writes it (a service's, or an entry point it
 * names).
 */
function isBundle(target: string): boolean {
  const name = /^dist\/([\w-]+)\.js$/.exec(target)?.[1];
  if (!name) return false;
  const script = readFileSync(path.join(root, 'tools/build-services.mjs'), 'utf8');
  return (
    existsSync(path.join(root, 'services', name, 'src/main.ts')) ||
    new RegExp(`^\\s+'?${name}'?: `, 'm').test(script)
  );
}

describe('shell snippets of the README and the docs', () => {
  it('name, inline, only npm scripts and files that exist', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const commands = inlineCommands();
    expect(commands.length).toBeGreaterThan(10);
    const missing = commands.filter(({ command }) => {
      const [tool, ...args] = command.split(/\s+/);
      if (tool === 'npm') return !(args[1] in scripts);
      const target = tool === 'npx' ? args[1] : args[0];
      return !existsSync(path.join(root, target)) && !isBundle(target);
    });
    expect(missing).toEqual([]);
  });

  it('are each run by a named test or listed with why not', () => {
    const blocks = shellBlocks();
    expect(blocks.filter((b) => !(b in SNIPPETS))).toEqual([]);
    expect(Object.keys(SNIPPETS).filter((k) => !blocks.includes(k))).toEqual([]);
  });

  it('say, for each block no test runs as pasted, which existing files run its equivalent', () => {
    for (const [key, how] of Object.entries(SNIPPETS)) {
      if (!('notRun' in how)) continue;
      const files = namedFiles(how.notRun);
      expect({ key, names: files.length > 0 }).toEqual({ key, names: true });
      for (const f of files)
        expect({ key, f, exists: existsSync(path.join(root, f)) }).toEqual({ key, f, exists: true });
    }
  });

  it('name tests that exist and read the document they run', () => {
    for (const [key, how] of Object.entries(SNIPPETS)) {
      if (!('runBy' in how)) continue;
      expect(existsSync(path.join(root, how.runBy))).toBe(true);
      const doc = key.slice(0, key.indexOf(': '));
      const spec = readFileSync(path.join(root, how.runBy), 'utf8');
      expect({ key, reads: spec.includes(doc) }).toEqual({ key, reads: true });
    }
  });
});
