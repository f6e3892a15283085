import { managementOperations, portalOperations } from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import { changesConfiguration } from './api-router';
import { portalHandlers } from '../portal/portal.handlers';
import type { PortalEndpointOps } from '../portal/portal-endpoint-ops';

// Compares each operation's declaration with the rules it replaces, before they are deleted.
describe('changesConfiguration declared on each operation', () => {
  it('equals what the management router did: the path rule, for a path with a project', () => {
    const differ = Object.values(managementOperations).filter(
      (op) => op.changesConfiguration !== (changesConfiguration(op) && op.path.includes(':projectID')),
    );
    expect(differ.map((op) => op.operationId)).toEqual([]);
  });

  it("equals the portal handlers' access tags", () => {
    const handlers = portalHandlers({} as GatewayDeps, {} as PortalEndpointOps);
    const differ = Object.values(portalOperations).filter(
      (op) =>
        op.changesConfiguration !== (handlers[op.operationId].access === 'configure') ||
        (op.permission === 'read' || op.permission === 'retry') !==
          (handlers[op.operationId].access === 'read'),
    );
    expect(differ.map((op) => op.operationId)).toEqual([]);
  });
});
