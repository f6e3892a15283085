import { SecretBox, newProjectId } from '@hookrail/domain';
import { deliveryDoc, endpointDoc } from '@hookrail/testkit';
import { buildRequest } from './build-request';

const P1 = newProjectId();

describe('buildRequest: forwarded and custom headers never pass for a signature', () => {
  const box = new SecretBox('test-key-0123456789abcdef0123456789');
  const forwarded = {
    'X-Hookrail-Signature': 'forged',
    'x-hookrail-event-id': 'forged',
    'webhook-signature': 'v1,forged',
    'X-Acme-Sig': 'forged',
    'X-Customer': 'kept',
  };
  const build = (secrets: boolean) => {
    const endpoint = endpointDoc(P1, {
      secrets: secrets
        ? [
            {
              uid: 's',
              value: box.seal('whsec'),
              created_at: new Date(),
              updated_at: new Date(),
              deleted_at: null,
              expires_at: null,
            },
          ]
        : [],
    });
    return buildRequest({
      delivery: deliveryDoc(P1, { endpoint_id: endpoint._id, event_id: 'E1', payload: '{"a":1}' }),
      event: {
        _id: 'E1',
        event_type: 'x',
        raw: '{"a":1}',
        forward_headers: forwarded,
        idempotency_key: null,
      },
      endpoint,
      signature: { header: 'X-Acme-Sig', versions: [], standard_webhooks: false },
      box,
      now: new Date(),
    }).headers;
  };

  it('drops forged signature and Hookrail headers, keeps the others', () => {
    for (const headers of [build(true), build(false)]) {
      const values = Object.entries(headers).filter(([, v]) => v.includes('forged'));
      expect(values).toEqual([]);
      expect(headers['X-Customer']).toBe('kept');
      expect(headers['X-Hookrail-Event-Id']).toBe('E1');
    }
    const signed = build(true);
    expect(Object.keys(signed).filter((k) => k.toLowerCase() === 'x-acme-sig')).toHaveLength(1);
  });
});
