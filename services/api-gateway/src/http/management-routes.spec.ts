import { managementOperations } from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import { managementRoutes } from './management-routes';

describe('the management API', () => {
  it('has exactly one handler for every operation of the contract, in its order', () => {
    // handlers close over deps but are not called: binding needs none
    const routes = managementRoutes({} as GatewayDeps);
    expect(routes.map((r) => r.operationId)).toEqual(Object.keys(managementOperations));
    for (const r of routes) expect(typeof r.handler).toBe('function');
  });
});
