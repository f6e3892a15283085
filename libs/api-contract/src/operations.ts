import { consoleOperations } from './console/console.operations';
import { ingestOperations } from './ingest/ingest.operations';
import { managementOperations } from './management';
import type { Operation } from './operation';
import { portalOperations } from './portal/portal.operations';
import { relayOperations } from './relay/relay.operations';

/** Every HTTP operation Hookrail serves, over all its surfaces. */
export const ALL_OPERATIONS: readonly Operation[] = [
  ...Object.values(managementOperations),
  ...Object.values(portalOperations),
  ...Object.values(consoleOperations),
  ...Object.values(ingestOperations),
  ...Object.values(relayOperations),
];
