import { listenOperations } from '@hookrail/api-contract';
import { ConflictError, DomainError } from '@hookrail/domain';
import type { GatewayDeps } from '../deps';
import { getEndpoint } from '../endpoints/endpoints.usecase';
import type { Handlers } from '../http/call';
import { openEventStream } from './listen-stream';

/** `hookrail listen`'s two calls: the stream of a cli endpoint's deliveries, and the answers to them. */
export function listenHandlers(deps: GatewayDeps): Handlers<typeof listenOperations> {
  return {
    async listenEndpoint({ project, params, query, req, res }) {
      // project-scoped: another project's endpoint id is a 404 like any unknown one
      const endpoint = await getEndpoint(deps, project._id, params.endpointID);
      if (endpoint.type !== 'cli')
        throw new ConflictError(
          `endpoint ${endpoint._id} is of type ${endpoint.type ?? 'http'}: only a cli endpoint can be listened to (hookrail listen creates one)`,
        );
      if (!deps.listeners.accepting) throw new DomainError('unavailable', 'this gateway is stopping');
      const forwardTo = typeof query.forward_to === 'string' ? query.forward_to : null;
      const { stream, closed } = openEventStream(req, res, {
        endpoint_id: endpoint._id,
        name: endpoint.name,
      });
      const remove = await deps.listenerRouting.opened(project._id, endpoint._id, stream);
      const fields = { project_id: project._id, endpoint_id: endpoint._id, forward_to: forwardTo };
      deps.logger.info(fields, 'hookrail listen connected');
      await closed;
      await remove();
      deps.logger.info(fields, 'hookrail listen disconnected');
      return null;
    },
    async answerListenedDelivery({ project, params, body }) {
      await deps.listenerRouting.answer(project._id, params.endpointID, body, false);
      return null;
    },
  };
}
