import { ENDPOINT_TYPES } from '@hookrail/api-contract';
import { SecretBox } from '@hookrail/domain';
import type { HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import type { EndpointDoc } from '@hookrail/store';
import { Metrics } from '@hookrail/telemetry';
import { DESTINATIONS, openDestinations } from './registry';

describe('the destination registry', () => {
  it('has exactly one destination for every endpoint type of the API', () => {
    expect(DESTINATIONS.map((d) => d.type).sort()).toEqual([...ENDPOINT_TYPES].sort());
  });

  it('sends an endpoint without a type as http, through the destination of its type otherwise', async () => {
    const sent: string[] = [];
    const http = {
      send: (r: { url: string }) => {
        sent.push(r.url);
        return Promise.resolve({ kind: 'response', status: 204, headers: {}, body: '', latencyMs: 1 });
      },
    } as unknown as HttpClient;
    const destinationOf = openDestinations({
      http,
      tokens: {} as OAuth2TokenCache,
      box: new SecretBox(),
      metrics: new Metrics('tests', { defaultMetrics: false }),
      now: Date.now,
    });
    const endpoint = (e: Partial<EndpointDoc>) =>
      ({ _id: 'ep', name: 'ep', url: 'https://a.test/h', ...e }) as EndpointDoc;
    const request = {
      delivery: { _id: 'd1', event_type: 't', created_at: new Date() },
      eventId: 'e1',
      body: Buffer.from('{}'),
      headers: {},
      timeoutMs: 1000,
    } as unknown as Parameters<ReturnType<typeof destinationOf>>[1];

    const plain = endpoint({});
    expect((await destinationOf(plain)(plain, request)).kind).toBe('attempt');
    expect(sent).toEqual(['https://a.test/h']);

    // without the dispatcher's publishers or relay, a broker or cli attempt is recorded as not sent
    for (const type of ['kafka', 'cli'] as const) {
      const other = endpoint({ type });
      const answer = await destinationOf(other)(other, request);
      expect(answer).toMatchObject({ kind: 'attempt', result: { kind: 'not_sent' } });
    }
    expect(sent).toHaveLength(1);
  });
});
