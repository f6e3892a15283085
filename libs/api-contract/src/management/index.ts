import { endpointOperations } from './endpoints.operations';

/**
 * The management API (`/api`), resource by resource in the order the router tries them: a
 * resource's literal paths come before its parameters within its own file.
 */
export const managementOperations = {
  ...endpointOperations,
};
