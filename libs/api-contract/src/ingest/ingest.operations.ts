import { defineOperations, type OperationShape } from '../operation';
import { object, resource, str } from '../schemas/common.schema';

const tag = 'Ingest';
const PATH = '/:maskId';

/** Any bytes the source accepts; its verifier, content type and functions decide (no JSON schema). */
const send = <const M extends 'post' | 'put' | 'patch'>(method: M) =>
  ({
    method,
    path: PATH,
    summary: `Send an event to an HTTP source (${method.toUpperCase()}): verified, transformed and accepted once Kafka has it`,
    tag,
    auth: 'source',
    permission: 'publish',
    changesConfiguration: false,
    status: 200,
    message: 'event received',
    response: resource({ event_id: str() }),
  }) satisfies OperationShape;

/** The ingest service (`/ingest/{maskId}`): what senders of an HTTP source call. */
export const ingestOperations = defineOperations('ingest', {
  ingestEvent: send('post'),
  ingestEventPut: send('put'),
  ingestEventPatch: send('patch'),
  answerSourceChallenge: {
    method: 'get',
    path: PATH,
    summary: "Answer a twitter source's CRC challenge (`?crc_token=`)",
    tag,
    auth: 'source',
    permission: 'none',
    changesConfiguration: false,
    query: { crc_token: str({ minLength: 1 }) },
    status: 200,
    message: 'challenge answered',
    response: object({ response_token: str() }, ['response_token']),
  },
});
