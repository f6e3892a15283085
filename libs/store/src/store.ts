import type { Connection } from 'mongoose';
import { ApiKeyRepository } from './api-keys';
import { ConfigVersionRepository } from './config-versions';
import { DeliveryRepository } from './deliveries';
import { EndpointRepository } from './endpoints';
import { EventRepository } from './events';
import { MetaEventRepository } from './meta-events';
import { PortalLinkRepository } from './portal-links';
import { ProjectRepository } from './projects';
import { ScheduleRepository } from './schedules';
import { SourceRepository } from './sources';
import { SourceHealthRepository } from './source-health';
import { SubscriptionRepository } from './subscriptions';
import { connectMongo, pingMongo } from './connection';
import { explainReads, type PlanSummary } from './diagnostics/explain';
import { readOpCounters, type OpCounters } from './diagnostics/op-counters';

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
  readonly metaEvents: MetaEventRepository;
  readonly schedules: ScheduleRepository;
  readonly sourceHealth: SourceHealthRepository;
  readonly configVersions: ConfigVersionRepository;

  private constructor(private readonly connection: Connection) {
    this.projects = new ProjectRepository(connection);
    this.apiKeys = new ApiKeyRepository(connection);
    this.sources = new SourceRepository(connection);
    this.endpoints = new EndpointRepository(connection);
    this.subscriptions = new SubscriptionRepository(connection);
    this.portalLinks = new PortalLinkRepository(connection);
    this.events = new EventRepository(connection);
    this.deliveries = new DeliveryRepository(connection);
    this.metaEvents = new MetaEventRepository(connection);
    this.schedules = new ScheduleRepository(connection);
    this.sourceHealth = new SourceHealthRepository(connection);
    this.configVersions = new ConfigVersionRepository(connection);
  }

  static async connect(url: string, appName?: string): Promise<Store> {
    return new Store(await connectMongo(url, { appName }));
  }

  /** Creates collections and the indexes declared in the schemas (idempotent). */
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

  /** The server's operation counters (benchmarks: round trips per event). */
  opCounters(): Promise<OpCounters> {
    return readOpCounters(this.connection);
  }

  /** Drops the whole database this store is connected to (benchmark and test databases only). */
  async dropDatabase(): Promise<void> {
    await this.connection.dropDatabase();
  }

  ping(): Promise<boolean> {
    return pingMongo(this.connection);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
