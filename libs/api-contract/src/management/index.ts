import { apiKeyOperations } from './api-keys.operations';
import { auditLogOperations } from './audit-log.operations';
import { deadLetterOperations } from './dead-letters.operations';
import { deliveryOperations } from './deliveries.operations';
import { deliveryOpsOperations } from './delivery-ops.operations';
import { deliveryStatsOperations } from './delivery-stats.operations';
import { endpointOperations } from './endpoints.operations';
import { eventOperations } from './events.operations';
import { listenOperations } from './listen.operations';
import { memberOperations } from './members.operations';
import { eventTypeOperations } from './event-types.operations';
import { metaEventOperations } from './meta-events.operations';
import { portalLinkOperations } from './portal-links.operations';
import { projectOperations } from './projects.operations';
import { sourceOperations } from './sources.operations';
import { subscriptionOperations } from './subscriptions.operations';

export {
  apiKeyOperations,
  auditLogOperations,
  deadLetterOperations,
  deliveryOperations,
  deliveryOpsOperations,
  deliveryStatsOperations,
  endpointOperations,
  eventOperations,
  eventTypeOperations,
  listenOperations,
  memberOperations,
  metaEventOperations,
  portalLinkOperations,
  projectOperations,
  sourceOperations,
  subscriptionOperations,
};

/**
 * The management API (`/api`), resource by resource in the order the router tries them: a
 * resource's literal paths come before its parameters within its own file.
 */
export const managementOperations = {
  ...projectOperations,
  ...apiKeyOperations,
  ...sourceOperations,
  ...endpointOperations,
  ...listenOperations,
  ...subscriptionOperations,
  ...eventTypeOperations,
  ...portalLinkOperations,
  ...eventOperations,
  ...deliveryOperations,
  ...metaEventOperations,
  ...deliveryOpsOperations,
  ...deliveryStatsOperations,
  ...deadLetterOperations,
  ...auditLogOperations,
  ...memberOperations,
};
