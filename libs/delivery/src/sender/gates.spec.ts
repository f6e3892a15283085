import type { DeliveryMessage } from '@hookrail/bus';
import type { DeliveryDoc, EndpointDoc, ProjectDoc } from '@hookrail/store';
import { endpointStatusGate, PAUSED_RECHECK_MS } from './endpoint-status.gate';
import { consultGates, type Gate, type GateContext } from './gates';

const context = (
  status: EndpointDoc['status'],
  reason: DeliveryMessage['reason'] = 'initial',
): GateContext => ({
  message: { reason } as DeliveryMessage,
  delivery: {} as DeliveryDoc,
  endpoint: { status } as EndpointDoc,
  subscription: null,
  project: {} as ProjectDoc,
  now: 1_000,
});

describe('endpointStatusGate', () => {
  it('sends to an active endpoint and holds deliveries of a paused one', () => {
    expect(endpointStatusGate(context('active'))).toEqual({ kind: 'send' });
    expect(endpointStatusGate(context('paused'))).toEqual({
      kind: 'hold',
      untilMs: 1_000 + PAUSED_RECHECK_MS,
      reason: 'paused',
    });
  });

  it('discards a new delivery to an inactive endpoint but holds one already waiting', () => {
    expect(endpointStatusGate(context('inactive'))).toEqual({
      kind: 'discard',
      reason: 'endpoint is inactive',
    });
    expect(endpointStatusGate(context('inactive', 'retry'))).toMatchObject({
      kind: 'hold',
      detail: 'endpoint is inactive',
    });
  });
});

describe('consultGates', () => {
  it('lets the first gate that does not say send decide, and asks no further', async () => {
    const asked: string[] = [];
    const gate =
      (name: string, decision: ReturnType<Gate>): Gate =>
      () => {
        asked.push(name);
        return decision;
      };
    const decision = await consultGates(
      [
        gate('a', { kind: 'send' }),
        gate('b', { kind: 'discard', reason: 'no' }),
        gate('c', { kind: 'send' }),
      ],
      context('active'),
    );
    expect(decision).toEqual({ kind: 'discard', reason: 'no' });
    expect(asked).toEqual(['a', 'b']);
    expect(await consultGates([], context('active'))).toEqual({ kind: 'send' });
  });
});
