import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '@hookrail/telemetry';

/**
 * Collects every span of this test file's process in memory. Call it before starting services:
 * tracing starts once per process, and the in-process services then record into it.
 */
export function collectSpans(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  startTracing({ service: 'tests', exporter: 'none', spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return exporter;
}
