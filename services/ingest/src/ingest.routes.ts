import { Router, type Request, type Response } from 'express';
import getRawBody from 'raw-body';
import { bindHandlers, ingestOperations, SURFACE_PREFIX } from '@hookrail/api-contract';
import type { PublishGuard, Publisher } from '@hookrail/bus';
import { fail, newId, ok, toTimestamp, type SecretBox, type ProjectId } from '@hookrail/domain';
import { normaliseHeaders } from '@hookrail/toolbox';
import type { FunctionPool } from '@hookrail/functions';
import { acceptRequest, type AcceptOutcome, type EventValidator } from '@hookrail/ingest';
import { twitterCrcResponse } from '@hookrail/signing';
import type { Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import type { SourceLookup } from './source-lookup';

export interface IngestRouteDeps {
  store: Store;
  lookup: SourceLookup;
  publisher: Publisher;
  functions: FunctionPool;
  box: SecretBox;
  logger: Logger;
  metrics: Metrics;
  /** Bounds the sender's wait for Kafka's acknowledgement (503 at once while Kafka is unavailable). */
  acceptGuard: PublishGuard;
  /** Checks the sources' events against their project's event type catalog. */
  validator: EventValidator;
}

const INGEST_METHODS = Object.values(ingestOperations)
  .filter((op) => op.operationId !== 'answerSourceChallenge')
  .map((op) => op.method.toUpperCase());

/** `/ingest/{maskID}`: thin adapter from HTTP to the accept-request use case. */
export function ingestRouter(deps: IngestRouteDeps): Router {
  const requests = deps.metrics.counter('hookrail_ingest_requests_total', 'Ingest requests by outcome', [
    'outcome',
  ]);
  const duration = deps.metrics.histogram(
    'hookrail_ingest_request_duration_seconds',
    'Time from request to answer, Kafka acknowledgement included',
    ['outcome'],
  );
  const router = Router();

  const accept = async (req: Request<{ maskId: string }>, res: Response) => {
    const started = process.hrtime.bigint();
    const reply: Reply = (outcome, status, body, contentType) => {
      requests.inc({ outcome });
      duration.observe({ outcome }, Number(process.hrtime.bigint() - started) / 1e9);
      if (contentType) res.status(status).type(contentType).send(body);
      else res.status(status).json(body);
    };
    try {
      const target = await deps.lookup.find(req.params.maskId);
      if (!target) return reply('not_found', 404, fail('source not found'));
      const { source } = target;
      res.locals.projectId = source.project_id;

      if (req.method === 'GET' && typeof req.query.crc_token === 'string') {
        return await answerCrc(deps, req.params.maskId, source, req.query.crc_token, reply);
      }
      if (!INGEST_METHODS.includes(req.method)) {
        res.setHeader('Allow', INGEST_METHODS.join(', '));
        return reply('method_not_allowed', 405, fail(`use ${INGEST_METHODS.join(', ')} to send events`));
      }
      if (source.is_disabled) return reply('disabled', 403, fail('source is disabled'));

      let rawBody: Buffer;
      try {
        rawBody = await getRawBody(req, {
          limit: target.maxPayloadBytes,
          length: req.headers['content-length'],
        });
      } catch (err) {
        const e = err as { type?: string; status?: number; message?: string };
        if (e.type === 'entity.too.large') {
          res.setHeader('Connection', 'close');
          return reply(
            'too_large',
            413,
            fail(`request body exceeds the limit of ${target.maxPayloadBytes} bytes`),
          );
        }
        return reply(
          'bad_request',
          e.status && e.status < 500 ? e.status : 400,
          fail(`could not read the request body: ${e.message}`),
        );
      }

      const queryAt = req.originalUrl.indexOf('?');
      const outcome = await acceptRequest(
        source,
        {
          headers: normaliseHeaders(req.headers),
          rawBody,
          query: queryAt >= 0 ? req.originalUrl.slice(queryAt + 1) : '',
        },
        {
          sink: {
            publisher: deps.publisher,
            acceptGuard: deps.acceptGuard,
            ordersDeliveries: () => target.ordered,
          },
          runFunction: (text, input, scope) => deps.functions.run(text, input, { scope }),
          openSecret: (s) => deps.box.open(s),
          checkEvent: (type, data, bytes) =>
            deps.validator.check(source.project_id, target.validation, type, data, bytes),
          newId,
          now: () => new Date(),
        },
      );
      respond(outcome, source, deps.logger, reply, res);
    } catch (err) {
      deps.logger.error({ err, mask_id: req.params.maskId }, 'ingest failed');
      if (!res.headersSent) reply('error', 500, fail('internal error'));
    }
  };
  // One handler reads the source first for every method (an unknown source answers 404 whatever
  // the method), then takes the challenge or the event.
  const handlers: Record<keyof typeof ingestOperations, typeof accept> = {
    ingestEvent: accept,
    ingestEventPut: accept,
    ingestEventPatch: accept,
    answerSourceChallenge: accept,
  };
  for (const op of bindHandlers(Object.values(ingestOperations), [handlers]))
    router[op.method](`${SURFACE_PREFIX.ingest}${op.path}`, op.handler);
  // Any other method: 404 for an unknown source, else 405 naming the methods above.
  router.all(`${SURFACE_PREFIX.ingest}/:maskId`, accept);
  return router;
}

type Reply = (outcome: string, status: number, body: unknown, contentType?: string) => void;

function respond(
  outcome: AcceptOutcome,
  source: {
    _id: string;
    project_id: ProjectId;
    custom_response?: { body: string; content_type: string } | null;
  },
  logger: Logger,
  reply: Reply,
  res: Response,
): void {
  const ids = { project_id: source.project_id, source_id: source._id };
  switch (outcome.kind) {
    case 'accepted': {
      logger.debug({ ...ids, event_id: outcome.eventId }, 'event accepted');
      const custom = source.custom_response;
      if (custom?.body !== undefined && custom.body !== null) {
        return reply('accepted', 200, custom.body, custom.content_type || 'text/plain');
      }
      return reply('accepted', 200, ok('event received', { event_id: outcome.eventId }));
    }
    case 'disabled':
      return reply('disabled', 403, fail('source is disabled'));
    case 'verification_failed':
      logger.info({ ...ids, reason: outcome.reason }, 'request verification failed');
      return reply('unverified', 401, fail('request verification failed'));
    case 'invalid_body':
      return reply('invalid_body', 400, fail(outcome.message));
    case 'unsupported_media_type':
      return reply('unsupported_media_type', 415, fail(outcome.message));
    case 'function_failed':
      return reply('function_failed', 400, fail(outcome.message));
    case 'invalid_event':
      return reply('invalid_event', 400, fail(outcome.message, outcome.errors));
    case 'unavailable':
      logger.warn({ ...ids, err: outcome.message }, 'event not acknowledged by kafka');
      res.setHeader('Retry-After', '5');
      return reply('unavailable', 503, fail('event could not be stored right now, retry later'));
  }
}

async function answerCrc(
  deps: IngestRouteDeps,
  maskId: string,
  source: {
    _id: string;
    project_id: ProjectId;
    provider: string | null;
    provider_config: Record<string, unknown> | null;
    verifier: Record<string, unknown> | null;
  },
  crcToken: string,
  reply: Reply,
): Promise<void> {
  const secret = (source.verifier as { hmac?: { secret?: string } } | null)?.hmac?.secret;
  if (source.provider !== 'twitter' || !secret) {
    return reply(
      'bad_request',
      400,
      fail('crc_token challenges are answered for twitter sources with a secret only'),
    );
  }
  const response = twitterCrcResponse(deps.box.open(secret), crcToken);
  await deps.store.sources.update(source.project_id, source._id, {
    provider_config: {
      ...(source.provider_config ?? {}),
      twitter: { crc_verified_at: toTimestamp(new Date()) },
    },
  });
  deps.lookup.forget(maskId);
  reply('crc', 200, response);
}
