import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RunningService } from '@hookrail/runtime';
import { LOCAL_SEND_SPAN } from '@hookrail/delivery';
import type { Store } from '@hookrail/store';
import {
  collectSpans,
  connectTestStore,
  makeEndpoint,
  makeSubscription,
  startReceiver,
  startTestService,
  testConfig,
  uniquePrefix,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';
import { definition as dispatcherDefinition } from '../../dispatcher/src/service';
import { definition as retrySchedulerDefinition } from '../../retry-scheduler/src/service';
import { createHttpSource } from './ingest-fixtures';
import { definition as ingestDefinition } from './service';

jest.setTimeout(90_000);

const spans = collectSpans();

/**
 * One trace follows an event across services: ingest's HTTP server span, the dispatcher's router
 * and sender consuming it from Kafka (trace context in the message headers), and the delivery
 * attempt's HTTP client span, with the ids and the status on them; a retry fired by the
 * retry-scheduler stays in that trace (its schedule entry keeps the trace context).
 */
describe('traces across services', () => {
  const prefix = uniquePrefix('tracing');
  let store: Store;
  let receiver: Receiver;
  let failingOnce: Receiver;
  const services: RunningService[] = [];

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver();
    failingOnce = await startReceiver({ fail: 1 });
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix };
    services.push(await startTestService(ingestDefinition(testConfig('ingest', env))));
    services.push(await startTestService(dispatcherDefinition(testConfig('dispatcher', env))));
    services.push(await startTestService(retrySchedulerDefinition(testConfig('retry-scheduler', env))));
  });

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await receiver?.close();
    await failingOnce?.close();
    await store?.close();
  });

  it('an event accepted over HTTP and delivered is one trace, from the request to the attempt', async () => {
    const source = await createHttpSource(store);
    const endpoint = await makeEndpoint(store, source.project_id, { url: `${receiver.url}/hook` });
    await makeSubscription(store, source.project_id, { endpoint_id: endpoint._id, source_id: source._id });
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${services[0].url}/ingest/${source.mask_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
      body: '{"traced":true}',
    });
    expect(res.status).toBe(200);
    const eventId = ((await res.json()) as { data: { event_id: string } }).data.event_id;
    await waitFor('delivery received', () => receiver.requests.length === 1, { timeoutMs: 30_000 });

    // A parent span ends after its children: wait until the sender's consumer span has ended too.
    const inTrace = () => spans.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace);
    const consumerOf = (topic: string) =>
      inTrace().find((s) => s.kind === SpanKind.CONSUMER && s.name.endsWith(`${prefix}.${topic}`));
    const attempt = await waitFor('attempt span', () =>
      inTrace().find((s) => s.kind === SpanKind.CLIENT && s.attributes['http.response.status_code'] === 200),
    );
    const routed = await waitFor('router span', () => consumerOf('events'));
    // The sending stage: the router's process sends it itself once it owns the endpoint's
    // deliveries partition (the only dispatcher, after joining), else the deliveries consumer does.
    const sent = await waitFor(
      'sender span',
      () => inTrace().find((s) => s.name === LOCAL_SEND_SPAN) ?? consumerOf('deliveries'),
    );
    const server = inTrace().find((s) => s.kind === SpanKind.SERVER);
    expect(server?.name).toBe('POST /ingest/:maskId');
    expect(server?.attributes['http.response.status_code']).toBe(200);

    expect(routed.attributes).toMatchObject({
      'hookrail.project_id': source.project_id,
      'hookrail.event_id': eventId,
    });
    expect(sent.attributes).toMatchObject({
      'hookrail.project_id': source.project_id,
      'hookrail.event_id': eventId,
      'hookrail.endpoint_id': endpoint._id,
      'hookrail.delivery_id': expect.any(String),
    });
    // parent links: request → router → sender → attempt
    const parentOf = (s: ReadableSpan | undefined) => s?.parentSpanContext?.spanId;
    expect(parentOf(routed)).toBe(server?.spanContext().spanId);
    expect(parentOf(sent)).toBe(routed.spanContext().spanId);
    expect(parentOf(attempt)).toBe(sent.spanContext().spanId);
    expect(attempt.attributes['server.address']).toBe('127.0.0.1');
  });

  it('a failed attempt and its retry are both in the ingest request trace', async () => {
    const source = await createHttpSource(store);
    const endpoint = await makeEndpoint(store, source.project_id, { url: `${failingOnce.url}/hook` });
    await makeSubscription(store, source.project_id, {
      endpoint_id: endpoint._id,
      source_id: source._id,
      retry_config: { type: 'linear', duration: 1, retry_count: 2 },
    });
    const callerTrace = '0af7651916cd43dd8448eb211c80319c';
    const res = await fetch(`${services[0].url}/ingest/${source.mask_id}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${callerTrace}-b7ad6b7169203331-01`,
        tracestate: 'hookrail=retry',
      },
      body: '{"retried":true}',
    });
    expect(res.status).toBe(200);
    await waitFor('the retry delivered', () => failingOnce.requests.length === 2, { timeoutMs: 30_000 });

    const inTrace = () => spans.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace);
    const attemptWith = (status: number) =>
      inTrace().find(
        (s) => s.kind === SpanKind.CLIENT && s.attributes['http.response.status_code'] === status,
      );
    const failed = await waitFor('failed attempt span', () => attemptWith(500));
    const retried = await waitFor('retried attempt span', () => attemptWith(200));
    const scheduled = await waitFor('retry-scheduler span', () =>
      inTrace().find((s) => s.kind === SpanKind.CONSUMER && s.name.endsWith(`${prefix}.retries`)),
    );
    expect(inTrace().find((s) => s.kind === SpanKind.SERVER)?.name).toBe('POST /ingest/:maskId');
    expect(failed.spanContext().spanId).not.toBe(retried.spanContext().spanId);
    expect(scheduled.attributes['hookrail.endpoint_id']).toBe(endpoint._id);
    // The caller's trace state travels with the retry too.
    expect(retried.spanContext().traceState?.get('hookrail')).toBe('retry');
  });
});
