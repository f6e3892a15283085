import { defineOperations } from '../operation';
import { relayAnswer, relayRequestBody } from '../schemas/listen.schema';

/**
 * The gateway's internal relay (`/relay`, never in the OpenAPI document): the dispatcher's attempt
 * at a `cli` endpoint, handed to the listening CLI; the answer is the local URL's.
 */
export const relayOperations = defineOperations('relay', {
  relayDelivery: {
    method: 'post',
    path: '/v1/projects/:projectID/endpoints/:endpointID',
    summary: "Hand one signed request to the endpoint's connected `hookrail listen` and wait for its answer",
    tag: 'Relay',
    auth: 'internal',
    body: relayRequestBody,
    status: 200,
    message: 'Relayed',
    response: relayAnswer,
  },
});
