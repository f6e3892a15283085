import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { enumOf, nonEmpty, str } from '../schemas/common.schema';
import { deadLetterResponse } from '../schemas/dead-letter.schema';

const TAG = 'Dead letters';
const BASE = '/v1/admin/dead-letters';

export const deadLetterOperations = defineOperations('api', {
  listDeadLetters: {
    method: 'get',
    path: BASE,
    summary: 'List dead-lettered Kafka messages, newest first (admin key)',
    tag: TAG,
    auth: 'admin',
    permission: 'read',
    changesConfiguration: false,
    query: {
      topic: nonEmpty(255),
      status: enumOf(['pending', 'redriven']),
      limit: str({ pattern: '^[0-9]+$', description: '1 to 500 (default 100)' }),
    },
    status: 200,
    message: 'Dead letters fetched successfully',
    response: Type.Array(deadLetterResponse),
  },
  redriveDeadLetter: {
    method: 'post',
    path: `${BASE}/:deadLetterID/redrive`,
    summary: 'Publish a dead letter to its original topic again (admin key)',
    tag: TAG,
    auth: 'admin',
    permission: 'operate',
    changesConfiguration: false,
    status: 202,
    message: 'Dead letter re-driven',
    response: deadLetterResponse,
  },
});
