import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { listenAnswerBody, listenDeliveryEvent, listenQuery } from '../schemas/listen.schema';

const tag = 'Listen';
const ONE = '/v1/projects/:projectID/endpoints/:endpointID';

/**
 * `hookrail listen` (docs/cli.md): the CLI holds one stream per `cli` endpoint and answers each
 * delivery it forwarded with what its local URL said.
 */
export const listenOperations = defineOperations('api', {
  listenEndpoint: {
    method: 'get',
    path: `${ONE}/listen`,
    summary:
      "Receive a cli endpoint's deliveries as server-sent events (one stream; the newest listener gets them)",
    tag,
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    query: listenQuery,
    stream: 'text/event-stream',
    status: 200,
    message: 'Listening',
    response: listenDeliveryEvent,
  },
  answerListenedDelivery: {
    method: 'post',
    path: `${ONE}/listen/answers`,
    summary: 'Report what the local URL answered to a delivery of the listen stream (the attempt’s result)',
    tag,
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    body: listenAnswerBody,
    status: 202,
    message: 'Answer recorded',
    response: Type.Null(),
  },
});
