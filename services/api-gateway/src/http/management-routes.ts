import { managementOperations, bindHandlers } from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import { deadLetterHandlers } from '../deliveries/dead-letters.handlers';
import { deliveryHandlers } from '../deliveries/deliveries.handlers';
import { deliveryOpsHandlers } from '../deliveries/delivery-ops.handlers';
import { deliveryStatsHandlers } from '../deliveries/delivery-stats.handlers';
import { endpointHandlers } from '../endpoints/endpoints.handlers';
import { eventTypeHandlers } from '../event-types/event-types.handlers';
import { eventHandlers } from '../events/events.handlers';
import { listenHandlers } from '../listen/listen.handlers';
import type { RouteSpec } from '../http/route';
import { portalLinkHandlers } from '../portal-links/portal-links.handlers';
import { apiKeyHandlers } from '../projects/api-keys.handlers';
import { metaEventHandlers } from '../projects/meta-events.handlers';
import { projectHandlers } from '../projects/projects.handlers';
import { sourceHandlers } from '../sources/sources.handlers';
import { subscriptionHandlers } from '../subscriptions/subscriptions.handlers';

/** Every operation of the management API with its handler, in the contract's order. */
export function managementRoutes(deps: GatewayDeps): RouteSpec[] {
  return bindHandlers<RouteSpec['handler']>(Object.values(managementOperations), [
    projectHandlers(deps),
    apiKeyHandlers(deps),
    sourceHandlers(deps),
    endpointHandlers(deps),
    listenHandlers(deps),
    subscriptionHandlers(deps),
    eventTypeHandlers(deps),
    portalLinkHandlers(deps),
    eventHandlers(deps),
    deliveryHandlers(deps),
    metaEventHandlers(deps),
    deliveryOpsHandlers(deps),
    deliveryStatsHandlers(deps),
    deadLetterHandlers(deps),
  ]);
}
