import type { GatewayDeps } from '../deps';
import { endpointOperations } from '@hookrail/api-contract';
import { endpointHandlers } from '../endpoints/endpoints.handlers';
import { legacyRoutes, type RouteFile } from '../http/legacy-route';
import { bindHandlers } from '@hookrail/api-contract';
import type { RouteSpec } from '../http/route';
import { apiKeyRoutes } from './api-keys.routes';
import { deadLetterRoutes } from './dead-letters.routes';
import { deliveryRoutes } from './deliveries.routes';
import { deliveryOpsRoutes } from './delivery-ops.routes';
import { deliveryStatsRoutes } from './delivery-stats.routes';
import { eventRoutes } from './events.routes';
import { metaEventRoutes } from './meta-events.routes';
import { portalLinkRoutes } from './portal-links.routes';
import { projectRoutes } from './projects.routes';
import { sourceRoutes } from './sources.routes';
import { subscriptionRoutes } from './subscriptions.routes';

/**
 * Every route file of the management API, in one list: add a file here to serve it and document it
 * in /api/openapi.json. Order matters only where a literal path could be shadowed by a parameter
 * (e.g. `endpoints/oauth2/test` before `endpoints/:endpointID`); each file keeps its literals first.
 */
export const ROUTE_FILES: RouteFile<GatewayDeps>[] = [
  projectRoutes,
  apiKeyRoutes,
  sourceRoutes,
  subscriptionRoutes,
  portalLinkRoutes,
  eventRoutes,
  deliveryRoutes,
  metaEventRoutes,
  deliveryOpsRoutes,
  deliveryStatsRoutes,
  deadLetterRoutes,
];

/** Every operation of the management API with its handler attached. */
export function managementRoutes(deps: GatewayDeps): RouteSpec[] {
  return [
    ...bindHandlers(Object.values(endpointOperations), [endpointHandlers(deps)]),
    ...legacyRoutes(ROUTE_FILES.flatMap((file) => file(deps))),
  ];
}
