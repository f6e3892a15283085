import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@hookrail/telemetry';

/** A service logger whose JSON lines are kept in memory, for tests that check what gets logged. */
export function captureLogs(service: string): {
  logger: Logger;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ service, level: 'info', destination });
  const text = () => chunks.join('');
  const lines = () =>
    text()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, text };
}
