import { defineOperations } from '../operation';
import { Type } from '@sinclair/typebox';
import { listenAnswerBody, relayAnswer, relayRequestBody } from '../schemas/listen.schema';

/**
 * The gateway's internal relay (`/relay`, never in the OpenAPI document): the dispatcher's attempt
 * at a `cli` endpoint, handed to the listening CLI; the answer is the local URL's. Between gateway
 * replicas, the same calls forward an attempt or an answer to the replica holding the stream.
 */
export const relayOperations = defineOperations('relay', {
  relayDelivery: {
    method: 'post',
    path: '/v1/projects/:projectID/endpoints/:endpointID',
    summary: "Hand one signed request to the endpoint's connected `hookrail listen` and wait for its answer",
    tag: 'Relay',
    auth: 'internal',
    permission: 'none',
    changesConfiguration: false,
    body: relayRequestBody,
    status: 200,
    message: 'Relayed',
    response: relayAnswer,
  },
  relayListenAnswer: {
    method: 'post',
    path: '/v1/projects/:projectID/endpoints/:endpointID/answers',
    summary: "A listener's answer that reached another replica, forwarded to the one waiting for it",
    tag: 'Relay',
    auth: 'internal',
    permission: 'none',
    changesConfiguration: false,
    body: listenAnswerBody,
    status: 202,
    message: 'Answer recorded',
    response: Type.Null(),
  },
});
