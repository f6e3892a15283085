// The store's public surface: the Store, its repositories' parameter and document types, and
// the typed errors. Models, schemas and the connection stay inside.
export { Store } from './store';
export { formatMigrationStatus } from './migrations/plan';
export type { MigrationStatusRow } from './migrations/migration';
export type { AppliedMigration } from './migrations/runner';
export { CONFIG_TTL_MS, ConfigCache, INITIAL_CONFIG_TOKEN } from './config-cache';
export { DuplicateKeyError, isDuplicateKey } from './errors';
export * from './base/pagination';
export { createdRangeOf, type CreatedRange } from './base/id-range';
export type { ScopedDoc, ScopedFields } from './base/project-scoped.repository';
export type { PlanSummary } from './diagnostics/explain';
export {
  DEFAULT_EVENT_VALIDATION,
  DEFAULT_PROJECT_CONFIG,
  type EventValidationConfig,
  type ProjectConfig,
  type ProjectDoc,
} from './projects/project.schema';
export type { ProjectRepository } from './projects/project.repository';
export type { ApiKeyDoc } from './api-keys/api-key.schema';
export type { ApiKeyRepository } from './api-keys/api-key.repository';
export type { SourceDoc } from './sources/source.schema';
export type { SourceListFilter, SourceRepository } from './sources/source.repository';
export type {
  EndpointBreakerState,
  EndpointDoc,
  EndpointSecret,
  EndpointStatus,
  EndpointType,
} from './endpoints/endpoint.schema';
export type {
  EndpointEventCount,
  EndpointListFilter,
  EndpointRepository,
} from './endpoints/endpoint.repository';
export type { OrderingConfig, OrderingUnblock, SubscriptionDoc } from './subscriptions/subscription.schema';
export { someOrdered } from './subscriptions/subscription.schema';
export type { SubscriptionListFilter, SubscriptionRepository } from './subscriptions/subscription.repository';
export type { PortalLinkDoc } from './portal-links/portal-link.schema';
export type { PortalLinkListFilter, PortalLinkRepository } from './portal-links/portal-link.repository';
export type { EventDoc, EventStatus } from './events/event.schema';
export { eventStatusFrom } from './events/event-status';
export type { EventListFilter, EventRepository, IdempotencyClaim } from './events/event.repository';
export type { DeliveryAttempt, DeliveryDoc, DeliveryStatus } from './deliveries/delivery.schema';
export type { DeliveryListFilter, DeliveryRepository } from './deliveries/delivery.repository';
export type { DeliveryOutcome } from './deliveries/delivery-outcome';
export { retryStateAfter } from './deliveries/delivery-outcome';
export type { RetryState } from './deliveries/fold-retry-outcomes';
export { ALL_ENDPOINTS, type DeliveryStatsDoc } from './delivery-stats/delivery-stats.schema';
export type { CountedOutcome } from './delivery-stats/counted-outcome';
export type {
  DeliveryStatsIncrement,
  DeliveryStatsRepository,
} from './delivery-stats/delivery-stats.repository';
export type { EventTypeSeenDoc } from './event-types/event-type.schema';
export type { EventTypeRepository, EventTypeSighting } from './event-types/event-type.repository';
export type { EventCatalogDoc } from './event-catalog/event-catalog.schema';
export type { EventCatalogRepository } from './event-catalog/event-catalog.repository';
export type { MetaEventDoc, MetaEventStatus } from './meta-events/meta-event.schema';
export type { MetaEventListFilter, MetaEventRepository } from './meta-events/meta-event.repository';
export type { ScheduleDoc } from './schedules/schedule.schema';
export type { ScheduleRepository } from './schedules/schedule.repository';
export {
  SOURCE_HEALTH_STATES,
  type SourceHealthDoc,
  type SourceHealthState,
} from './source-health/source-health.schema';
export type { SourceHealthRepository } from './source-health/source-health.repository';
export type { ChangeStreamOffsetDoc, ChangeStreamOffsetRepository } from './change-stream-offsets';
export type { CliListenerDoc } from './cli-listeners/cli-listener.schema';
export type { CliListenerRepository } from './cli-listeners/cli-listener.repository';
export type { DeadLetterDoc } from './dead-letters/dead-letter.schema';
export type { AuditDoc } from './audit-log/audit-log.schema';
export type { AuditFilter } from './audit-log/audit-log.repository';
export type { AuditOutboxRepository } from './audit-outbox/audit-outbox.repository';
export type { GroupRoles, PersonDoc } from './people/person.schema';
export type { PersonRepository } from './people/person.repository';
export type { MemberDoc } from './members/member.schema';
export type { MemberRepository } from './members/member.repository';
export {
  deadLetterId,
  type DeadLetterRecord,
  type DeadLetterRepository,
} from './dead-letters/dead-letter.repository';
export type { HeldDeliveryDoc, OrderingKeyDoc } from './ordering/ordering.schema';
export type { ScopedId } from './base/scoped-ids';
export type { KeyStateWrite, OrderingRepository } from './ordering/ordering.repository';
