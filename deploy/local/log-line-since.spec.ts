import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// servers.sh waits for a Kafka start with `log_line_since` (lib.sh).
const lib = path.join(__dirname, 'lib.sh');
const started = 'INFO [KafkaRaftServer nodeId=1] Kafka Server started (kafka.server.KafkaRaftServer)';

function logDir(files: Record<string, string[]>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'log-since-'));
  for (const [name, lines] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), lines.map((l) => `${l}\n`).join(''));
  }
  return dir;
}

function found(dir: string, since: string): boolean {
  const run = spawnSync(
    'bash',
    [
      '-c',
      'set -euo pipefail; source "$0"; log_line_since "$1" "$2" "$3"',
      lib,
      path.join(dir, 'server.log'),
      'Kafka Server started',
      since,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0 && run.status !== 1) throw new Error(`bash failed (${run.status}): ${run.stderr}`);
  return run.status === 0;
}

describe('log_line_since', () => {
  it("finds this start's line and not an earlier start's", () => {
    const dir = logDir({
      'server.log': [
        `[2026-12-01 16:04:58,306] ${started}`,
        '[2026-12-01 16:07:10,001] INFO Registered kafka:type=kafka.Log4jController MBean (kafka.utils.Log4jControllerRegistration$)',
      ],
    });
    expect(found(dir, '2026-12-01 16:07:10,000')).toBe(false);
    expect(found(dir, '2026-12-01 16:04:58,305')).toBe(true);
  });

  it('finds the line once it is written', () => {
    const dir = logDir({ 'server.log': [`[2026-12-01 16:07:18,120] ${started}`] });
    expect(found(dir, '2026-12-01 16:07:10,000')).toBe(true);
  });

  it('is not fooled by an earlier start within the same second', () => {
    const dir = logDir({ 'server.log': [`[2026-12-01 16:07:10,000] ${started}`] });
    expect(found(dir, '2026-12-01 16:07:10,000')).toBe(false);
  });

  it('finds the line after the log rolled over during the start', () => {
    // The start wrote more than the appender's limit: the earlier lines, and perhaps the one
    // sought, are now in server.log.1, and server.log is shorter than it was before the start.
    const before = `[2026-12-01 16:04:58,306] ${started}`;
    const rolledNew = logDir({
      'server.log.1': [before, '[2026-12-01 16:07:11,000] INFO Loaded 5000 logs (kafka.log.LogManager)'],
      'server.log': [`[2026-12-01 16:07:18,120] ${started}`],
    });
    expect(found(rolledNew, '2026-12-01 16:07:10,000')).toBe(true);
    const rolledAfter = logDir({
      'server.log.1': [before, `[2026-12-01 16:07:18,120] ${started}`],
      'server.log': ['[2026-12-01 16:07:19,000] INFO [GroupCoordinator 1]: Preparing to rebalance (x)'],
    });
    expect(found(rolledAfter, '2026-12-01 16:07:10,000')).toBe(true);
  });

  it('answers no when there is no log yet', () => {
    expect(found(logDir({}), '2026-12-01 16:07:10,000')).toBe(false);
  });
});
