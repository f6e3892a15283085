import type { relayOperations } from '@hookrail/api-contract';
import { DomainError, isId, NotFoundError, RELAY_CREDENTIAL_HEADER, safeEqual } from '@hookrail/domain';
import type { GatewayDeps } from '../deps';
import type { Authenticator } from '../http/authenticators';
import type { Handlers } from '../http/call';
import { FORWARDED_HEADER } from './listener-routing';

/**
 * The `internal` auth kind: the dispatcher's credential, compared in constant time; none configured
 * means the relay is off. An id in the path that is no id names no project.
 */
export function internalAuthenticator(credential: string | undefined): Authenticator<null> {
  return {
    async authenticate(req) {
      if (!credential)
        throw new DomainError(
          'unavailable',
          'the cli relay is off: set HOOKRAIL_ENCRYPTION_KEY (or HOOKRAIL_ADMIN_KEY) on the gateway and the dispatcher',
          { retriable: false },
        );
      const given = req.get(RELAY_CREDENTIAL_HEADER);
      if (!given || !safeEqual(given, credential))
        throw new DomainError('unauthenticated', `missing or wrong ${RELAY_CREDENTIAL_HEADER}`);
      return null;
    },
    authorize: () => undefined,
    async project(_actor, params) {
      if (!isId(params.projectID)) throw new NotFoundError('project');
      return null;
    },
  };
}

/**
 * The internal relay under /relay (docs/cli.md, "How it is built"): the dispatcher's attempt at a
 * `cli` endpoint is handed to the CLI listening on this gateway, and answered with the CLI's
 * report of what its local URL said. Not part of the OpenAPI document.
 */
export function relayHandlers(deps: GatewayDeps): Handlers<typeof relayOperations> {
  const relayed = deps.metrics.counter(
    'hookrail_cli_relay_requests_total',
    'Attempts at cli endpoints relayed by this replica: answered by a listener, or refused (none connected, no answer in time, holder unreachable)',
    ['outcome', 'forwarded'],
  );
  return {
    async relayDelivery({ req, params, body }) {
      const isForwarded = req.get(FORWARDED_HEADER) === '1';
      const forwarded = String(isForwarded);
      try {
        const answer = await deps.listenerRouting.relay(
          params.projectID,
          params.endpointID,
          body,
          isForwarded,
        );
        relayed.inc({ outcome: 'answered', forwarded });
        return answer;
      } catch (err) {
        relayed.inc({ outcome: 'refused', forwarded });
        throw err;
      }
    },
    async relayListenAnswer({ req, params, body }) {
      const isForwarded = req.get(FORWARDED_HEADER) === '1';
      await deps.listenerRouting.answer(params.projectID, params.endpointID, body, isForwarded);
      return null;
    },
  };
}
