import type { DeliveryMessage } from '@hookrail/bus';
import type { DeliveryDoc, EndpointDoc, ProjectDoc, SubscriptionDoc } from '@hookrail/store';

export interface GateContext {
  message: DeliveryMessage;
  delivery: DeliveryDoc;
  endpoint: EndpointDoc;
  subscription: SubscriptionDoc | null;
  project: ProjectDoc;
  now: number;
}

/**
 * A check consulted before every send. `hold` delays the delivery without spending a retry
 * (the retry scheduler brings it back at `untilMs`); `discard` records it as Discarded.
 * Rate limits and the circuit breaker add their gates beside endpoint-status.gate.ts.
 */
export type GateDecision =
  | { kind: 'send' }
  | { kind: 'hold'; untilMs: number; reason: 'paused' | 'rate_limited' | 'circuit_open'; detail?: string }
  | { kind: 'discard'; reason: string };

export type Gate = (ctx: GateContext) => GateDecision | Promise<GateDecision>;

/** The first gate that does not say `send` decides. */
export async function consultGates(gates: readonly Gate[], ctx: GateContext): Promise<GateDecision> {
  for (const gate of gates) {
    const decision = await gate(ctx);
    if (decision.kind !== 'send') return decision;
  }
  return { kind: 'send' };
}
