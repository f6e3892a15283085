import type { Connection } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { deleteProjectBatch } from './base/delete-batch';
import { ApiKeyRepository } from './api-keys';
import { CliListenerRepository } from './cli-listeners';
import { DeadLetterRepository } from './dead-letters';
import { DeliveryRepository } from './deliveries';
import { DeliveryStatsRepository } from './delivery-stats';
import { EventCatalogRepository } from './event-catalog';
import { EventTypeRepository } from './event-types';
import { EndpointRepository } from './endpoints';
import { EventRepository } from './events';
import { MetaEventRepository } from './meta-events';
import { PortalLinkRepository } from './portal-links';
import { ProjectRepository } from './projects';
import { OrderingRepository } from './ordering';
import { AuditLogRepository } from './audit-log';
import { AuditOutboxRepository } from './audit-outbox';
import { MemberRepository } from './members';
import { PersonRepository } from './people';
import { ScheduleRepository } from './schedules';
import { SourceRepository } from './sources';
import { SourceHealthRepository } from './source-health';
import { ChangeStreamOffsetRepository } from './change-stream-offsets';
import { SubscriptionRepository } from './subscriptions';
import { connectMongo, pingMongo, type ConnectOptions } from './connection';
import { explainReads, type PlanSummary } from './diagnostics/explain';
import { MigrationRunner, type MigrationRunOptions } from './migrations/runner';

/** What a project's retention period applies to (its configuration is kept until it is deleted). */
const HISTORY_COLLECTIONS = new Set([
  'events',
  'idempotency_claims',
  'event_deliveries',
  'delivery_retry_outcomes',
  'meta_events',
  'audit_log',
]);

/**
 * Every repository over one connection: the only way the services reach MongoDB. The connection
 * and the models stay inside; callers get named methods with typed parameters.
 */
export class Store {
  readonly projects: ProjectRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly sources: SourceRepository;
  readonly endpoints: EndpointRepository;
  readonly subscriptions: SubscriptionRepository;
  readonly portalLinks: PortalLinkRepository;
  readonly events: EventRepository;
  readonly deliveries: DeliveryRepository;
  readonly deliveryStats: DeliveryStatsRepository;
  readonly eventTypes: EventTypeRepository;
  readonly eventCatalog: EventCatalogRepository;
  readonly metaEvents: MetaEventRepository;
  readonly schedules: ScheduleRepository;
  readonly sourceHealth: SourceHealthRepository;
  readonly changeStreamOffsets: ChangeStreamOffsetRepository;
  readonly deadLetters: DeadLetterRepository;
  readonly cliListeners: CliListenerRepository;
  readonly ordering: OrderingRepository;
  readonly auditLog: AuditLogRepository;
  readonly auditOutbox: AuditOutboxRepository;
  readonly people: PersonRepository;
  readonly members: MemberRepository;

  private constructor(private readonly connection: Connection) {
    this.projects = new ProjectRepository(connection);
    this.apiKeys = new ApiKeyRepository(connection);
    this.sources = new SourceRepository(connection);
    this.endpoints = new EndpointRepository(connection);
    this.subscriptions = new SubscriptionRepository(connection);
    this.portalLinks = new PortalLinkRepository(connection);
    this.events = new EventRepository(connection);
    this.deliveries = new DeliveryRepository(connection);
    this.deliveryStats = new DeliveryStatsRepository(connection);
    this.eventTypes = new EventTypeRepository(connection);
    this.eventCatalog = new EventCatalogRepository(connection);
    this.metaEvents = new MetaEventRepository(connection);
    this.schedules = new ScheduleRepository(connection);
    this.sourceHealth = new SourceHealthRepository(connection);
    this.changeStreamOffsets = new ChangeStreamOffsetRepository(connection);
    this.deadLetters = new DeadLetterRepository(connection);
    this.cliListeners = new CliListenerRepository(connection);
    this.ordering = new OrderingRepository(connection);
    this.auditLog = new AuditLogRepository(connection);
    this.auditOutbox = new AuditOutboxRepository(connection);
    this.people = new PersonRepository(connection);
    this.members = new MemberRepository(connection);
  }

  static async connect(
    url: string,
    appName?: string,
    opts: Omit<ConnectOptions, 'appName'> = {},
  ): Promise<Store> {
    return new Store(await connectMongo(url, { ...opts, appName }));
  }

  /**
   * The versioned migrations of this database (docs/database.md, "Migrations"): what is applied
   * and pending, and `up()` to apply them. The set-up runs them before any new pod serves.
   */
  migrations(options: Omit<MigrationRunOptions, 'migrations'> = {}): MigrationRunner {
    if (!this.connection.db) throw new Error('the store is not connected');
    return new MigrationRunner(this.connection.db, options);
  }

  /**
   * Applies the pending migrations, if any (tests' and benchmarks' databases; a deployment's are
   * the set-up's job). Reads the records first, so an up-to-date database costs one query and no lock.
   */
  async migrate(): Promise<void> {
    const migrations = this.migrations();
    if ((await migrations.pendingCount()) > 0) await migrations.up();
  }

  /**
   * Creates collections and the indexes declared in the schemas (idempotent). Nothing runs it but
   * the migrations test, which checks that a database migrated to the end has exactly the indexes
   * the schemas declare: the migrations are what a database's schema is.
   */
  async ensureIndexes(): Promise<void> {
    for (const model of Object.values(this.connection.models)) {
      await model.createCollection().catch((err: { codeName?: string }) => {
        if (err.codeName !== 'NamespaceExists') throw err;
      });
      await model.createIndexes();
    }
  }

  /** Runs `fn` and returns the plans of the queries it sent (benchmarks, diagnostics). */
  explain<T>(fn: () => Promise<T>): Promise<{ result: T; plans: PlanSummary[] }> {
    return explainReads(this.connection, fn);
  }

  /** Drops the whole database this store is connected to (benchmark and test databases only). */
  async dropDatabase(): Promise<void> {
    await this.connection.dropDatabase();
  }

  /**
   * Deletes up to `batch` documents of the project from each collection that holds project data
   * (every model with a `project_id`, so a collection added later is covered). Returns how many
   * were deleted; 0 means nothing of the project is left but its project and version documents.
   */
  async purgeProjectData(projectId: ProjectId, batch: number): Promise<number> {
    let deleted = 0;
    for (const model of Object.values(this.connection.models)) {
      if (!model.schema.path('project_id')) continue;
      deleted += await deleteProjectBatch(model.collection, projectId, {}, batch);
    }
    return deleted;
  }

  /**
   * Deletes up to `batch` documents of the project created before `cutoff` from each of the
   * project's history collections (events with their idempotency claims, deliveries with their
   * attempts, meta events). Returns how many were deleted; 0 means none older is left.
   */
  async deleteProjectHistoryBefore(projectId: ProjectId, cutoff: Date, batch: number): Promise<number> {
    let deleted = 0;
    for (const model of Object.values(this.connection.models)) {
      if (!HISTORY_COLLECTIONS.has(model.collection.collectionName)) continue;
      deleted += await deleteProjectBatch(
        model.collection,
        projectId,
        { created_at: { $lt: cutoff } },
        batch,
      );
    }
    return deleted;
  }

  /** How many documents of the project each collection holds (tests and diagnostics). */
  async countProjectData(projectId: ProjectId): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const model of Object.values(this.connection.models)) {
      if (!model.schema.path('project_id')) continue;
      out[model.collection.collectionName] = await model.collection.countDocuments({ project_id: projectId });
    }
    return out;
  }

  ping(): Promise<boolean> {
    return pingMongo(this.connection);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
