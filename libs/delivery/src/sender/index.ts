export { createSender, type SenderDeps } from './send-delivery';
export { consultGates, type Gate, type GateContext, type GateDecision } from './gates';
export { endpointStatusGate, PAUSED_RECHECK_MS } from './endpoint-status.gate';
