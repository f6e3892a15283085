export { createSender, type SenderDeps } from './send-delivery';
export type { DestinationDeps } from './destinations/destination';
export { consultGates, type Gate, type GateContext, type GateDecision } from './gates';
export { endpointStatusGate, PAUSED_RECHECK_MS } from './endpoint-status.gate';
export { createFirstSends, LOCAL_SEND_SPAN, type FirstSendsDeps } from './first-sends';
export { EndpointLanes, type EndpointLanesOptions } from './endpoint-lanes';
export { RetryStates } from './retry-states';
export { AnsweredOutOfWindow } from './answered-out-of-window';
