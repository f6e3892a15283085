import { Router, type Request } from 'express';
import { bindHandlers, relayOperations } from '@hookrail/api-contract';
import {
  DomainError,
  fail,
  isId,
  NotFoundError,
  ok,
  RELAY_CREDENTIAL_HEADER,
  safeEqual,
} from '@hookrail/domain';
import type { GatewayDeps } from '../deps';
import { errorMapper } from '../http/error-mapper';
import { jsonBody } from '../http/json-body';
import { validate } from '../http/validator';
import { FORWARDED_HEADER } from './listener-routing';

/** The dispatcher's credential, compared in constant time; none configured means the relay is off. */
function checkCredential(req: Request, credential: string | undefined): void {
  if (!credential)
    throw new DomainError(
      'unavailable',
      'the cli relay is off: set HOOKRAIL_ENCRYPTION_KEY (or HOOKRAIL_ADMIN_KEY) on the gateway and the dispatcher',
      { retriable: false },
    );
  const given = req.get(RELAY_CREDENTIAL_HEADER);
  if (!given || !safeEqual(given, credential))
    throw new DomainError('unauthenticated', `missing or wrong ${RELAY_CREDENTIAL_HEADER}`);
}

/**
 * The internal relay under /relay (docs/cli.md, "How it is built"): the dispatcher's attempt at a
 * `cli` endpoint is handed to the CLI listening on this gateway, and answered with the CLI's
 * report of what its local URL said. Not part of the OpenAPI document.
 */
export function relayRouter(deps: GatewayDeps, credential: string | undefined): Router {
  /** The path's ids after the credential: an id that is no id names nothing. */
  const target = (req: Request) => {
    checkCredential(req, credential);
    const { projectID, endpointID } = req.params as Record<string, string>;
    if (!isId(projectID)) throw new NotFoundError('project');
    return { projectID, endpointID, forwarded: req.get(FORWARDED_HEADER) === '1' };
  };
  const relayed = deps.metrics.counter(
    'hookrail_cli_relay_requests_total',
    'Attempts at cli endpoints relayed by this replica: answered by a listener, or refused (none connected, no answer in time, holder unreachable)',
    ['outcome', 'forwarded'],
  );
  const handlers = {
    relayDelivery: async (req: Request) => {
      const t = target(req);
      const body = validate(relayOperations.relayDelivery.body, req.body);
      const forwarded = String(t.forwarded);
      try {
        const answer = await deps.listenerRouting.relay(t.projectID, t.endpointID, body, t.forwarded);
        relayed.inc({ outcome: 'answered', forwarded });
        return answer;
      } catch (err) {
        relayed.inc({ outcome: 'refused', forwarded });
        throw err;
      }
    },
    relayListenAnswer: async (req: Request) => {
      const t = target(req);
      const body = validate(relayOperations.relayListenAnswer.body, req.body);
      await deps.listenerRouting.answer(t.projectID, t.endpointID, body, t.forwarded);
      return null;
    },
  };
  const router = Router();
  router.use(jsonBody(deps.config.http.bodyLimitBytes));
  for (const op of bindHandlers(Object.values(relayOperations), [handlers]))
    router[op.method](op.path, async (req, res) => {
      const data = await op.handler(req);
      res.status(op.status).json(ok(op.message, data));
    });
  router.use((req, res) => {
    res.status(404).json(fail(`no route for ${req.method} ${req.originalUrl.split('?')[0]}`));
  });
  router.use(errorMapper(deps.logger));
  return router;
}
