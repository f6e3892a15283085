import type { Gate } from './gates';

/** A paused endpoint's deliveries are looked at again this often (activation also releases them). */
export const PAUSED_RECHECK_MS = 30_000;

/**
 * Paused → held, nothing lost;
 * inactive → new deliveries Discarded (resendable after activate), deliveries already waiting held.
 */
export const endpointStatusGate: Gate = ({ endpoint, message, now }) => {
  if (endpoint.status === 'paused')
    return { kind: 'hold', untilMs: now + PAUSED_RECHECK_MS, reason: 'paused' };
  if (endpoint.status === 'inactive') {
    return message.reason === 'initial'
      ? { kind: 'discard', reason: 'endpoint is inactive' }
      : { kind: 'hold', untilMs: now + PAUSED_RECHECK_MS, reason: 'paused', detail: 'endpoint is inactive' };
  }
  return { kind: 'send' };
};
