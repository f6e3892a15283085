import { NotFoundError, toTimestamp } from '@hookrail/domain';
import type { DeadLetterDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { deadLetterOperations, type DeadLetterResponse } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

function present(d: DeadLetterDoc): DeadLetterResponse {
  return {
    uid: d._id,
    topic: d.topic,
    partition: d.partition,
    offset: d.offset,
    group: d.group,
    key: d.key,
    value: d.value,
    headers: d.headers ?? {},
    error: d.error,
    error_name: d.error_name,
    retriable: d.retriable,
    attempts: d.attempts,
    failed_at: toTimestamp(d.failed_at),
    status: d.status,
    redriven_at: d.redriven_at ? toTimestamp(d.redriven_at) : null,
    redrive_count: d.redrive_count,
  };
}

export function deadLetterHandlers({ store, bus, now }: GatewayDeps): Handlers<typeof deadLetterOperations> {
  return {
    async listDeadLetters({ query }) {
      const limit = Math.min(500, Math.max(1, Number(query.limit ?? 100)));
      const docs = await store.deadLetters.list({
        topic: query.topic as string | undefined,
        status: query.status as DeadLetterDoc['status'] | undefined,
        limit,
      });
      return docs.map(present);
    },
    async redriveDeadLetter({ params }) {
      const letter = await store.deadLetters.find(params.deadLetterID);
      if (!letter) throw new NotFoundError('dead letter');
      // Published first: a crash before the mark leaves it pending, and a second re-drive is a
      // duplicate the consumers already tolerate (at-least-once).
      await bus.republish(letter);
      const marked = await store.deadLetters.markRedriven(letter._id, now());
      return present(marked ?? letter);
    },
  };
}
