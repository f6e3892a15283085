import { SpanKind } from '@opentelemetry/api';
import type { RunningService } from '@hookrail/runtime';
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
import { createHttpSource } from '../../ingest/src/ingest-fixtures';
import { definition as ingestDefinition } from '../../ingest/src/service';
import { definition } from './service';

jest.setTimeout(90_000);

const spans = collectSpans();

/**
 * A retry keeps its trace: the schedule entry stores the trace context of the retry message, and
 * the delivery message it fires carries it, so the retried attempt is in the event's trace.
 */
describe('a retried delivery stays in its event trace', () => {
  const prefix = uniquePrefix('retry-trace');
  let store: Store;
  let receiver: Receiver;
  const services: RunningService[] = [];

  beforeAll(async () => {
    store = await connectTestStore();
    receiver = await startReceiver({ fail: 1 });
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix };
    services.push(await startTestService(ingestDefinition(testConfig('ingest', env))));
    services.push(await startTestService(dispatcherDefinition(testConfig('dispatcher', env))));
    services.push(await startTestService(definition(testConfig('retry-scheduler', env))));
  });

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await receiver?.close();
    await store?.close();
  });

  it('the failed first attempt and the successful retry are both in the ingest request trace', async () => {
    const source = await createHttpSource(store);
    const endpoint = await makeEndpoint(store, source.project_id, { url: `${receiver.url}/hook` });
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
    await waitFor('the retry delivered', () => receiver.requests.length === 2, { timeoutMs: 30_000 });

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
    // The trace state the caller sent is carried along too.
    expect(retried.spanContext().traceState?.get('hookrail')).toBe('retry');
  });
});
