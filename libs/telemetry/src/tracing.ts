import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
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
import { AlwaysOffSampler, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export { SpanKind };

let sdk: NodeSDK | undefined;
let started = false;
/** Whether spans go anywhere (an exporter or a test's processors); false with exporter `none`. */
let recording = true;

/**
 * Starts OpenTelemetry once per process. With exporter `none` a tracer provider without exporters
 * is registered, so trace ids are still made and carried through Kafka headers, just not exported
 * (nor recorded, unless a test passes span processors).
 */
export function startTracing(opts: {
  service: string;
  exporter: 'none' | 'console' | 'otlp';
  otlpEndpoint?: string;
  /** Extra processors (tests collect spans in memory with one). */
  spanProcessors?: SpanProcessor[];
}): void {
  if (started) return;
  started = true;
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (opts.exporter === 'none') {
    const spanProcessors = opts.spanProcessors ?? [];
    // Nothing would receive the spans: they are not recorded (no attributes, no timing), while
    // their ids are still made and propagated.
    recording = spanProcessors.length > 0;
    const sampler = recording ? undefined : new AlwaysOffSampler();
    new NodeTracerProvider({ spanProcessors, sampler }).register();
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

/**
 * One tracer for the process. Taken before startTracing registers the provider, it is a proxy that
 * binds to the provider's tracer on the first span after that; asking the global provider for it on
 * every span cost a map lookup and a key string per span.
 */
const hookrailTracer = trace.getTracer('hookrail');

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

type HeaderValue = string | Buffer | (string | Buffer)[] | undefined;

/** The W3C trace context (traceparent, tracestate) kept beside work that continues later (a scheduled retry). */
export interface TraceContext {
  traceparent?: string | null;
  tracestate?: string | null;
}

/** The W3C trace context headers carry, to store with the work. */
export function traceContextOf(headers: Readonly<Record<string, HeaderValue>> | undefined): TraceContext {
  const text = (v: HeaderValue) => (Array.isArray(v) ? v[0] : v)?.toString();
  const traceparent = text(headers?.traceparent);
  const tracestate = text(headers?.tracestate);
  return { ...(traceparent ? { traceparent } : {}), ...(tracestate ? { tracestate } : {}) };
}

/**
 * Runs `fn` in a stored trace context, so what it publishes continues that trace. Without one it
 * runs in a new trace, never in the caller's: a timer inherits the context of whatever armed it.
 */
export function withinStoredTrace<T>(stored: TraceContext, fn: () => T): T {
  const carrier: Carrier = {};
  if (stored.traceparent) carrier.traceparent = stored.traceparent;
  if (stored.tracestate) carrier.tracestate = stored.tracestate;
  return context.with(propagation.extract(ROOT_CONTEXT, carrier, getter), fn);
}

/**
 * Runs `fn` outside any trace: a timer or callback it sets up does not carry the caller's
 * context into work that belongs to other traces.
 */
export function outsideAnyTrace<T>(fn: () => T): T {
  return context.with(ROOT_CONTEXT, fn);
}

export type SpanAttributes = Record<string, string | number | boolean>;

/** Marks a span failed without an exception (an answer that is an error: a 5xx, a refused send). */
export function markSpanFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * A server span for one incoming HTTP request, continuing the caller's trace when the request
 * carries `traceparent`. `run` executes the handling inside it; `end` closes it with what the
 * answer turned out to be.
 */
export function startServerSpan(
  name: string,
  headers: Record<string, string | string[] | undefined>,
): {
  /** False when nothing records spans: `end` would keep nothing, and its attributes need not be made. */
  recording: boolean;
  run<T>(fn: () => T): T;
  end(attributes: SpanAttributes, failed: boolean, finalName?: string): void;
} {
  const { traceparent, tracestate } = traceContextOf(headers);
  const parent = extractTraceContext({
    traceparent: traceparent ?? undefined,
    tracestate: tracestate ?? undefined,
  });
  const span = hookrailTracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
  const ctx = trace.setSpan(parent, span);
  return {
    recording: span.isRecording(),
    run: (fn) => context.with(ctx, fn),
    end(attributes, failed, finalName) {
      if (finalName) span.updateName(finalName);
      span.setAttributes(attributes);
      if (failed) markSpanFailed(span, 'request failed');
      span.end();
    },
  };
}

/**
 * Runs `fn` inside a span that is a child of `parent`, ending it and recording errors. When spans
 * are not recorded and the parent carries a trace, no child is made: its only trace would be a new
 * span id that nothing sees, at the cost of ids, a span and a context per call (three per
 * delivered event in the dispatcher). `fn` then runs in the parent's context with the parent's
 * span, which does not record either, so the trace id carried on is the same.
 */
export async function withSpan<T>(
  name: string,
  opts: { parent?: Context; kind?: SpanKind; attributes?: SpanAttributes },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  if (!recording) {
    const parent = opts.parent ?? context.active();
    const parentSpan = trace.getSpan(parent);
    if (parentSpan && isSpanContextValid(parentSpan.spanContext()))
      return opts.parent ? context.with(parent, () => fn(parentSpan)) : fn(parentSpan);
  }
  const span = hookrailTracer.startSpan(name, { kind: opts.kind, attributes: opts.attributes }, opts.parent);
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
