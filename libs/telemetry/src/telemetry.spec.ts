import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { Metrics } from './metrics';
import {
  currentTraceId,
  extractTraceContext,
  injectTraceHeaders,
  outsideAnyTrace,
  startTracing,
  traceContextOf,
  withinStoredTrace,
  withSpan,
} from './tracing';

function lines(): { stream: Writable; read: () => Record<string, unknown>[] } {
  const out: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk.toString());
      cb();
    },
  });
  return {
    stream,
    read: () =>
      out
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
  };
}

describe('logger', () => {
  it('writes JSON lines with the service, an ISO time and a textual level, and redacts secrets', () => {
    const { stream, read } = lines();
    const log = createLogger({ service: 'dispatcher', instanceId: 'i-1', destination: stream });
    log.info(
      { headers: { authorization: 'Bearer hr_x.y' }, endpoint: { secret: 's3cret', url: 'u' } },
      'sent',
    );
    const [line] = read();
    expect(line).toMatchObject({ level: 'info', service: 'dispatcher', instance: 'i-1', msg: 'sent' });
    expect(Date.parse(line.time as string)).not.toBeNaN();
    expect(line.headers).toEqual({ authorization: '[redacted]' });
    expect(line.endpoint).toEqual({ secret: '[redacted]', url: 'u' });
  });

  it('honours the level', () => {
    const { stream, read } = lines();
    const log = createLogger({ service: 's', level: 'warn', destination: stream });
    log.info('hidden');
    log.warn('shown');
    expect(read().map((l) => l.msg)).toEqual(['shown']);
  });
});

describe('metrics', () => {
  it('shares one instrument per name and renders Prometheus text with the service label', async () => {
    const m = new Metrics('ingest', { defaultMetrics: false });
    m.counter('hookrail_test_total', 'a test counter', ['kind']).inc({ kind: 'a' });
    m.counter('hookrail_test_total', 'a test counter', ['kind']).inc({ kind: 'a' }, 2);
    m.histogram('hookrail_test_seconds', 'a test histogram').observe(0.02);
    const { contentType, body } = await m.render();
    expect(contentType).toContain('text/plain');
    expect(body).toContain('hookrail_test_total{kind="a",service="ingest"} 3');
    expect(body).toContain('hookrail_test_seconds_bucket{le="0.025",service="ingest"} 1');
  });
});

describe('tracing', () => {
  beforeAll(() => startTracing({ service: 'test', exporter: 'none' }));

  it('carries the trace through message headers: a consumer span continues the producer trace', async () => {
    const headers: Record<string, string | Buffer | undefined> = {};
    const producerTrace = await withSpan('publish', {}, async () => {
      injectTraceHeaders(headers);
      return currentTraceId();
    });
    expect(producerTrace).toMatch(/^[0-9a-f]{32}$/);
    expect(String(headers.traceparent)).toContain(producerTrace);

    // Kafka hands headers back as Buffers.
    const received = { traceparent: Buffer.from(String(headers.traceparent)) };
    const consumerTrace = await withSpan('consume', { parent: extractTraceContext(received) }, async () =>
      currentTraceId(),
    );
    expect(consumerTrace).toBe(producerTrace);
  });

  it("not recorded, a span inside a trace makes no ids: the caller's span is carried on", async () => {
    const received = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00' };
    const headers: Record<string, string | Buffer | undefined> = {};
    const seen = await withSpan('consume', { parent: extractTraceContext(received) }, (outer) =>
      withSpan('POST', {}, async (inner) => {
        injectTraceHeaders(headers);
        return { outer: outer.spanContext(), inner: inner.spanContext(), recording: inner.isRecording() };
      }),
    );
    expect(headers.traceparent).toBe(received.traceparent);
    expect(seen.inner).toEqual(seen.outer);
    expect(seen.outer.spanId).toBe('00f067aa0ba902b7');
    expect(seen.recording).toBe(false);
  });

  it('a message without trace headers starts a new trace', async () => {
    const a = await withSpan('a', { parent: extractTraceContext(undefined) }, async () => currentTraceId());
    const b = await withSpan('b', { parent: extractTraceContext({}) }, async () => currentTraceId());
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
  });

  it('a stored trace context is continued later, even from inside an unrelated trace', async () => {
    const received = { traceparent: Buffer.from('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01') };
    const stored = traceContextOf({ ...received, tracestate: ['vendor=1'] });
    expect(stored).toEqual({
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'vendor=1',
    });
    const headers: Record<string, string | Buffer | undefined> = {};
    await withSpan('unrelated', {}, async () => withinStoredTrace(stored, () => injectTraceHeaders(headers)));
    expect(headers).toEqual(stored);
  });

  it('without a stored trace context, work runs outside the calling trace', async () => {
    expect(traceContextOf({})).toEqual({});
    const headers: Record<string, string | Buffer | undefined> = {};
    await withSpan('unrelated', {}, async () => withinStoredTrace({}, () => injectTraceHeaders(headers)));
    expect(headers).toEqual({});
    const detached = await withSpan('caller', {}, async () => outsideAnyTrace(() => currentTraceId()));
    expect(detached).toBeUndefined();
  });

  it('rethrows what the spanned work throws', async () => {
    await expect(
      withSpan('failing', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(currentTraceId()).toBeUndefined();
  });
});
