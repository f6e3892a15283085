import { Type, type Static } from '@sinclair/typebox';
import { NotFoundError, toTimestamp } from '@hookrail/domain';
import type { DeadLetterDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { RouteFile } from '../http/legacy-route';
import { bool, enumOf, int, mapOf, nonEmpty, nullable, object, str } from '@hookrail/api-contract';

const TAG = 'Dead letters';
const BASE = '/v1/admin/dead-letters';

const deadLetterResponse = object({
  uid: str(),
  topic: str(),
  partition: int(),
  offset: str(),
  group: str(),
  key: nullable(str()),
  value: nullable(str()),
  headers: mapOf(str()),
  error: str(),
  error_name: str(),
  retriable: bool,
  attempts: int(),
  failed_at: str({ format: 'date-time' }),
  status: enumOf(['pending', 'redriven']),
  redriven_at: nullable(str({ format: 'date-time' })),
  redrive_count: int(),
});

function present(d: DeadLetterDoc): Static<typeof deadLetterResponse> {
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

/**
 * Messages the Kafka consumers gave up on (see docs/decisions.md, "Dead letters"). Admin key only:
 * a dead letter belongs to a topic, not to a project.
 */
export const deadLetterRoutes: RouteFile<GatewayDeps> = ({ store, bus, now }) => [
  {
    method: 'get',
    path: BASE,
    operationId: 'listDeadLetters',
    summary: 'List dead-lettered Kafka messages, newest first (admin key)',
    tag: TAG,
    auth: 'admin',
    query: {
      topic: nonEmpty(255),
      status: enumOf(['pending', 'redriven']),
      limit: str({ pattern: '^[0-9]+$', description: '1 to 500 (default 100)' }),
    },
    status: 200,
    message: 'Dead letters fetched successfully',
    response: Type.Array(deadLetterResponse),
    async handler({ query }) {
      const limit = Math.min(500, Math.max(1, Number(query.limit ?? 100)));
      const docs = await store.deadLetters.list({
        topic: query.topic as string | undefined,
        status: query.status as DeadLetterDoc['status'] | undefined,
        limit,
      });
      return docs.map(present);
    },
  },
  {
    method: 'post',
    path: `${BASE}/:deadLetterID/redrive`,
    operationId: 'redriveDeadLetter',
    summary: 'Publish a dead letter to its original topic again (admin key)',
    tag: TAG,
    auth: 'admin',
    status: 202,
    message: 'Dead letter re-driven',
    response: deadLetterResponse,
    async handler({ params }) {
      const letter = await store.deadLetters.find(params.deadLetterID);
      if (!letter) throw new NotFoundError('dead letter');
      // Published first: a crash before the mark leaves it pending, and a second re-drive is a
      // duplicate the consumers already tolerate (at-least-once).
      await bus.republish(letter);
      const marked = await store.deadLetters.markRedriven(letter._id, now());
      return present(marked ?? letter);
    },
  },
];
