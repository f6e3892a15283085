import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from '@hookrail/telemetry';
import { errorMessage } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import type { ConsumerMetrics } from './consumer-metrics';
import type { DeadLetterMessage } from './messages';

/** Where a message goes when its consumer gives up on it; resolves once it is stored durably. */
export type DeadLetterSink = (letter: DeadLetterMessage) => Promise<void>;

export interface GiveUpDeps {
  topic: string;
  group: string;
  logger: Logger;
  metrics: ConsumerMetrics;
  /** Without one, a message given up on is logged, counted and skipped. */
  deadLetter?: DeadLetterSink;
}

/**
 * Stores a message given up on as a dead letter, retrying the store itself until it succeeds or
 * the message is no longer this member's (then it throws: the message stays uncommitted).
 */
export async function giveUp(
  deps: GiveUpDeps,
  m: KafkaMessage,
  partition: number,
  failure: { err: unknown; retriable: boolean; attempts: number },
  /** Whether this member still owns the message (not stopping, no rebalance since it started). */
  stillOwned: () => boolean,
): Promise<void> {
  const { err, retriable, attempts } = failure;
  const where = { err, topic: deps.topic, partition, offset: m.offset, attempts };
  if (!deps.deadLetter) {
    deps.metrics.count('skipped');
    deps.logger.error(where, `skipping message: ${errorMessage(err)}`);
    return;
  }
  const letter: DeadLetterMessage = {
    topic: deps.topic,
    partition,
    offset: m.offset,
    group: deps.group,
    key: m.key ? m.key.toString('utf8') : null,
    value: m.value ? m.value.toString('utf8') : null,
    headers: headerText(m.headers),
    error: errorMessage(err),
    error_name: err instanceof Error ? err.name : typeof err,
    retriable,
    attempts,
    failed_at: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.deadLetter(letter);
      break;
    } catch (storeErr) {
      if (!stillOwned()) throw storeErr;
      deps.logger.warn(
        { ...where, err: storeErr },
        `dead-lettering failed, retrying: ${errorMessage(storeErr)}`,
      );
      await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
    }
  }
  deps.metrics.count('dead_lettered');
  deps.logger.error(where, `message dead-lettered after ${attempts} attempt(s): ${errorMessage(err)}`);
}

function headerText(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name] = (Array.isArray(value) ? value : [value]).map((v) => v.toString()).join(',');
  }
  return out;
}
