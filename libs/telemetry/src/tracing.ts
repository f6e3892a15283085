import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export { SpanKind };

let sdk: NodeSDK | undefined;
let started = false;

/**
 * Starts OpenTelemetry once per process. With exporter `none` a tracer provider without exporters
 * is registered, so trace ids are still made and carried through Kafka headers, just not exported.
 */
export function startTracing(opts: {
  service: string;
  exporter: 'none' | 'console' | 'otlp';
  otlpEndpoint?: string;
}): void {
  if (started) return;
  started = true;
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (opts.exporter === 'none') {
    new NodeTracerProvider().register();
    return;
  }
  sdk = new NodeSDK({
    serviceName: opts.service,
    traceExporter:
      opts.exporter === 'console'
        ? new ConsoleSpanExporter()
        : new OTLPTraceExporter(opts.otlpEndpoint ? { url: `${opts.otlpEndpoint}/v1/traces` } : {}),
    instrumentations: [],
  });
  sdk.start();
}

export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}

/** The active trace id, for log lines. */
export function currentTraceId(): string | undefined {
  const id = trace.getSpan(context.active())?.spanContext().traceId;
  return id && id !== '00000000000000000000000000000000' ? id : undefined;
}

export const tracer = () => trace.getTracer('hookrail');

type Carrier = Record<string, string | Buffer | undefined>;

const setter: TextMapSetter<Carrier> = { set: (carrier, key, value) => void (carrier[key] = value) };
const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    return v === undefined ? undefined : v.toString();
  },
};

/** Writes the active trace context (traceparent/tracestate) into message headers. */
export function injectTraceHeaders(headers: Carrier, ctx: Context = context.active()): Carrier {
  propagation.inject(ctx, headers, setter);
  return headers;
}

/** Reads a trace context from message headers. */
export function extractTraceContext(headers: Carrier | undefined): Context {
  return propagation.extract(context.active(), headers ?? {}, getter);
}

/** Runs `fn` inside a span that is a child of `parent`, ending it and recording errors. */
export async function withSpan<T>(
  name: string,
  opts: { parent?: Context; kind?: SpanKind; attributes?: Record<string, string | number | boolean> },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer().startSpan(name, { kind: opts.kind, attributes: opts.attributes }, opts.parent);
  try {
    return await context.with(trace.setSpan(opts.parent ?? context.active(), span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    span.end();
  }
}
