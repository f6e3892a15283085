import {
  bindHandlers,
  consoleOperations,
  managementOperations,
  portalOperations,
  relayOperations,
} from '@hookrail/api-contract';
import type { GatewayConsole } from './console';
import type { GatewayDeps } from './deps';
import { auditLogHandlers } from './audit/audit-log.handlers';
import { deadLetterHandlers } from './deliveries/dead-letters.handlers';
import { deliveryHandlers } from './deliveries/deliveries.handlers';
import { deliveryOpsHandlers } from './deliveries/delivery-ops.handlers';
import { deliveryStatsHandlers } from './deliveries/delivery-stats.handlers';
import { endpointHandlers } from './endpoints/endpoints.handlers';
import { eventTypeHandlers } from './event-types/event-types.handlers';
import { eventHandlers } from './events/events.handlers';
import type { Authenticators } from './http/authenticators';
import type { BoundOperation } from './http/call';
import type { GatewaySurface } from './http/mount-operations';
import { principalAuthenticator } from './auth/principal';
import { listenHandlers } from './listen/listen.handlers';
import { memberHandlers } from './members/members.handlers';
import { internalAuthenticator, relayHandlers } from './listen/relay.handlers';
import { portalAuthenticator } from './portal/portal-auth';
import { gatewayEndpointOps } from './portal/portal-endpoint-ops';
import { portalHandlers } from './portal/portal.handlers';
import { portalLinkHandlers } from './portal-links/portal-links.handlers';
import { apiKeyHandlers } from './projects/api-keys.handlers';
import { metaEventHandlers } from './projects/meta-events.handlers';
import { projectHandlers } from './projects/projects.handlers';
import { sourceHandlers } from './sources/sources.handlers';
import { subscriptionHandlers } from './subscriptions/subscriptions.handlers';

type Handler = BoundOperation['handler'];

/**
 * Every operation the gateway serves with its handler, surface by surface in the contract's order.
 * Binding throws, and the gateway does not start, when an operation has no handler or two.
 */
export function gatewayOperations(
  deps: GatewayDeps,
  gatewayConsole: Pick<GatewayConsole, 'handlers'>,
): Record<GatewaySurface, BoundOperation[]> {
  return {
    api: bindHandlers<Handler>(Object.values(managementOperations), [
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
      auditLogHandlers(deps),
      memberHandlers(deps),
    ]),
    portal: bindHandlers<Handler>(Object.values(portalOperations), [
      portalHandlers(deps, gatewayEndpointOps(deps)),
    ]),
    console: bindHandlers<Handler>(Object.values(consoleOperations), [gatewayConsole.handlers]),
    relay: bindHandlers<Handler>(Object.values(relayOperations), [relayHandlers(deps)]),
  };
}

/** Who may call, per auth kind: the registry the mount function looks each operation's `auth` up in. */
export function gatewayAuthenticators(
  deps: GatewayDeps,
  gatewayConsole: Pick<GatewayConsole, 'session' | 'authenticators'>,
  relayCredential: string | undefined,
): Authenticators {
  const principal = {
    cache: deps.cache,
    adminKey: deps.config.security.adminKey,
    session: gatewayConsole.session,
  };
  return {
    admin: principalAuthenticator(principal, true),
    project: principalAuthenticator(principal),
    portal: portalAuthenticator(deps),
    ...gatewayConsole.authenticators,
    internal: internalAuthenticator(relayCredential),
  };
}
