import type { HookrailConfig } from '@hookrail/config';
import type { Bus, PublishGuard, Publisher } from '@hookrail/bus';
import type { HttpClient } from '@hookrail/outbound';
import type { FunctionPool } from '@hookrail/functions';
import type { SecretBox } from '@hookrail/domain';
import type { ConfigCache, Store } from '@hookrail/store';
import type { EventValidator } from '@hookrail/ingest';
import type { Logger, Metrics } from '@hookrail/telemetry';
import type { Listeners } from './listen/listeners';
import type { AuditSink } from './audit/audit-sink';
import type { ListenerRouting } from './listen/listener-routing';

/** What route handlers and gateway use cases need; built once in service.ts. */
export interface GatewayDeps {
  config: Readonly<HookrailConfig>;
  store: Store;
  /** Short-lived cache of keys, projects and endpoints read on every request. */
  cache: ConfigCache;
  publisher: Publisher;
  /** The audit log's sink: every record (calls, sign-ins, role changes) goes through it. */
  audit: AuditSink;
  /** Re-drives dead letters (raw re-publish to their original topic); announces configuration changes. */
  bus: Pick<Bus, 'republish' | 'clusterId' | 'announceConfigChange'>;
  /** Bounds the events API's wait for Kafka (503 at once while Kafka is unavailable). */
  acceptGuard: PublishGuard;
  /** Checks the events API's events against the project's event type catalog. */
  eventValidator: EventValidator;
  logger: Logger;
  metrics: Metrics;
  box: SecretBox;
  /** Outbound HTTP with the SSRF guard (OAuth2 token test). */
  http: HttpClient;
  /** quickjs sandbox for test_function. */
  functions: FunctionPool;
  /** The `hookrail listen` streams connected to this replica and their unanswered requests. */
  listeners: Listeners;
  /** The same across replicas: which one holds a stream, and forwarding to it. */
  listenerRouting: ListenerRouting;
  now: () => Date;
}
