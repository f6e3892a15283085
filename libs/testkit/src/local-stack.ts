import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');

/**
 * A path deploy/local/lib.sh defines (`KAFKA_LIBS`, `SECANTUS_BIN`, `SCHEMATHESIS_BIN`, …): where
 * provisioning put a server or tool, if it is there; null otherwise.
 */
export function localStackPath(variable: string): string | null {
  try {
    const value = execFileSync(
      'bash',
      ['-c', `source "$0" && printf %s "$${variable}"`, `${REPO}/deploy/local/lib.sh`],
      {
        encoding: 'utf8',
      },
    );
    return value && existsSync(value) ? value : null;
  } catch {
    return null;
  }
}
