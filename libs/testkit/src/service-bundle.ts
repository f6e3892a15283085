import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
/** Where jest.global-setup.js bundles the services once per test run (tools/build-services.mjs). */
const TEST_DIST = path.join(ROOT, '.local/test-dist');
/** The node flags the image runs the services with. */
const NODE_FLAGS = JSON.parse(readFileSync(path.join(ROOT, 'tools/node-flags.json'), 'utf8')) as string[];

/**
 * The arguments of `node` that run a service as its own process, as the image runs it: its bundle
 * with the image's flags. A bundle starts with about 2.5 s of CPU, against 6–7 s through tsx from
 * the sources, and the process tests then exercise what ships.
 */
export function serviceArgs(service: string): string[] {
  const bundle = path.join(TEST_DIST, `${service}.js`);
  if (!existsSync(bundle))
    throw new Error(
      `${bundle} is missing: the integration project's global set-up builds it (or run node tools/build-services.mjs .local/test-dist)`,
    );
  return [...NODE_FLAGS, bundle];
}
