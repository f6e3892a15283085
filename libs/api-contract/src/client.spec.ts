import { createCaller, operationUrl } from './client';
import { portalOperations } from './portal/portal.operations';
import { endpointOperations } from './management/endpoints.operations';

describe('operationUrl', () => {
  it("puts the surface's prefix and the encoded path parameters", () => {
    expect(operationUrl(endpointOperations.getEndpoint, { projectID: 'p 1', endpointID: 'e/2' })).toBe(
      '/api/v1/projects/p%201/endpoints/e%2F2',
    );
    expect(operationUrl(portalOperations.portalGetLink)).toBe('/portal-api/link');
  });

  it('repeats a list parameter and leaves out empty values', () => {
    expect(
      operationUrl(
        portalOperations.portalListDeliveries,
        {},
        {
          status: 'Failure',
          endpointId: ['a', 'b'],
          eventId: '',
          perPage: undefined,
        },
      ),
    ).toBe('/portal-api/eventdeliveries?status=Failure&endpointId=a&endpointId=b');
  });

  it('refuses a call without one of its path parameters', () => {
    expect(() => operationUrl(endpointOperations.getEndpoint, { projectID: 'p' })).toThrow(
      'getEndpoint: missing path parameter endpointID',
    );
  });
});

describe('createCaller', () => {
  it('sends the operation’s method, URL and body through the transport', async () => {
    const sent: unknown[][] = [];
    const call = createCaller(async (...args) => {
      sent.push(args);
      return { ok: true };
    });
    await call(portalOperations.portalSendTestEvent, {
      params: { endpointID: 'e1' },
      body: { event_type: 'order.paid' },
    });
    expect(sent).toEqual([['POST', '/portal-api/endpoints/e1/test-event', { event_type: 'order.paid' }]]);
  });
});
