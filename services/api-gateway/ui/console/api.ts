import { managementOperations } from '@hookrail/api-contract';

/** The management API's operations, as the contract declares them: `ctx.call(api.getEndpoint, …)`. */
export const api = managementOperations;
