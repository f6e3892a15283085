export { createEndpointHealth } from './create-endpoint-health';
export type { EndpointHealth } from './endpoint-health';
