import {
  brokerSettings,
  describeBroker,
  openBrokerCredentials,
  startSubscriber,
  type BrokerEnvironment,
  type Subscriber,
  type SubscriberState,
} from '@hookrail/brokers';
import { errorMessage, type SecretBox, type ProjectId } from '@hookrail/domain';
import { DEFAULT_PROJECT_CONFIG, type SourceDoc, type Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { messageHandler, type HandlerDeps } from './message-handler';
import { startChangeStreamSource } from './change-stream-source';
import type { NamedConnection } from '@hookrail/change-streams';

/** What a running source reports: a broker subscriber's states, and a change stream's lost resume point. */
type ReportedState = SubscriberState | 'resume_lost';

/** Unacknowledged messages per worker (AMQP prefetch, Kafka messages in flight per partition…). */
const PREFETCH = 100;

interface Running {
  projectId: ProjectId;
  kind: string;
  fingerprint: string;
  subscriber: Subscriber;
}

export interface RegistryDeps extends HandlerDeps {
  store: Store;
  box: SecretBox;
  logger: Logger;
  metrics: Metrics;
  env: BrokerEnvironment;
  /** The connections change stream sources may name instead of carrying a string (libs/config). */
  namedConnections: ReadonlyMap<string, NamedConnection>;
  instanceId: string;
}

/**
 * The broker sources running on this replica. `apply` compares a source's stored settings with
 * what runs and starts, stops or restarts its subscriber; operations on one source are queued so
 * a burst of changes never runs two subscribers for it.
 */
export class SourceRegistry {
  private readonly running = new Map<string, Running>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly reports = new Map<string, Promise<void>>();
  private readonly up;
  private readonly messages;
  private readonly lag;
  private readonly behindBytes;
  private readonly behindChanges;

  constructor(private readonly deps: RegistryDeps) {
    this.lag = deps.metrics.gauge(
      'hookrail_change_stream_lag_seconds',
      'Seconds between the newest change a db_change_stream source read and now (0: caught up)',
      ['source_id'],
    );
    this.behindBytes = deps.metrics.gauge(
      'hookrail_change_stream_behind_bytes',
      "WAL bytes a postgres db_change_stream source's slot holds unconfirmed (pg_current_wal_lsn() - confirmed_flush_lsn)",
      ['source_id'],
    );
    this.behindChanges = deps.metrics.gauge(
      'hookrail_change_stream_behind_changes',
      'Changes a mongodb db_change_stream source has still to read (its oplog entries past the newest read, counted up to 100,000)',
      ['source_id'],
    );
    this.up = deps.metrics.gauge(
      'hookrail_source_up',
      'Broker source consuming on this replica (1) or not (0)',
      ['source_id', 'kind'],
    );
    this.messages = deps.metrics.counter('hookrail_source_messages_total', 'Broker messages by outcome', [
      'kind',
      'outcome',
    ]);
  }

  ids(): string[] {
    return [...this.running.keys()];
  }

  /** Brings the source in line with its stored state (running with its settings, or stopped). */
  apply(sourceId: string, projectId: ProjectId): Promise<void> {
    return this.serial(sourceId, () => this.reconcile(sourceId, projectId));
  }

  /** Stops the source here without marking it stopped (another replica takes it over). */
  release(sourceId: string): Promise<void> {
    return this.serial(sourceId, () => this.halt(sourceId));
  }

  async releaseAll(): Promise<void> {
    await Promise.all(this.ids().map((id) => this.release(id)));
  }

  private serial(sourceId: string, op: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(sourceId) ?? Promise.resolve()).then(op, op);
    const settled = next.catch((err: unknown) =>
      this.deps.logger.error({ source_id: sourceId, err: errorMessage(err) }, 'source change failed'),
    );
    this.queues.set(sourceId, settled);
    void settled.finally(() => {
      if (this.queues.get(sourceId) === settled) this.queues.delete(sourceId);
    });
    return next;
  }

  private async reconcile(sourceId: string, projectId: ProjectId): Promise<void> {
    const { store } = this.deps;
    const [source, project] = await Promise.all([
      store.sources.findById(projectId, sourceId),
      store.projects.findById(projectId),
    ]);
    const live =
      source &&
      !source.deleted_at &&
      ((source.type === 'pub_sub' && source.pub_sub) ||
        (source.type === 'db_change_stream' && source.db_change_stream)) &&
      project &&
      !project.deleted_at;
    if (!live || source.is_disabled) {
      const wasRunning = this.running.has(sourceId);
      await this.halt(sourceId);
      if (live || wasRunning) await this.report(projectId, sourceId, 'stopped', null);
      return;
    }
    const maxPayloadBytes = project.config?.max_payload_bytes ?? DEFAULT_PROJECT_CONFIG.max_payload_bytes;
    const fingerprint = JSON.stringify([
      source.pub_sub,
      source.db_change_stream,
      source.body_function,
      source.header_function,
      source.forward_headers,
      source.idempotency_keys,
      project.type,
      maxPayloadBytes,
    ]);
    if (this.running.get(sourceId)?.fingerprint === fingerprint) return;
    await this.halt(sourceId);
    if (source.type === 'db_change_stream')
      this.startChangeStream(source, { type: project.type, maxPayloadBytes }, fingerprint);
    else this.start(source, { type: project.type, maxPayloadBytes }, fingerprint);
  }

  /** A `db_change_stream` source: its stream runs here like a broker subscriber (change-stream-source.ts). */
  private startChangeStream(
    source: SourceDoc,
    project: { type: 'incoming' | 'outgoing'; maxPayloadBytes: number },
    fingerprint: string,
  ) {
    const log = this.deps.logger.child({ project_id: source.project_id, source_id: source._id });
    const kind = source.db_change_stream?.type === 'postgres' ? 'postgres' : 'mongodb';
    const onState = this.stateReporter(source, kind);
    let stream;
    try {
      stream = startChangeStreamSource(
        source,
        project,
        {
          ...this.deps,
          open: (s) => this.deps.box.open(s),
          namedConnections: this.deps.namedConnections,
          allowPrivateHosts: this.deps.env.allowPrivateHosts ?? false,
        },
        {
          logger: log,
          onState,
          // Never a silent skip: the source shows the state until the operator restarts it from now.
          onResumeLost: (error) => onState('resume_lost', error),
          onRejected: (reason) => {
            this.messages.inc({ kind, outcome: 'dropped' });
            log.error({ kind, reason }, `change dropped: ${reason}`);
          },
          onLag: (seconds) => this.lag.set({ source_id: source._id }, seconds),
          recordLag: async (lag) => {
            if (lag.behind_bytes !== null) this.behindBytes.set({ source_id: source._id }, lag.behind_bytes);
            if (lag.behind_changes !== null)
              this.behindChanges.set({ source_id: source._id }, lag.behind_changes);
            await this.deps.store.sourceHealth.reportLag(source.project_id, source._id, lag);
          },
        },
      );
    } catch (err) {
      log.error({ err: errorMessage(err) }, 'change stream source has unusable settings');
      void this.report(source.project_id, source._id, 'unreachable', errorMessage(err));
      return;
    }
    log.info({ kind }, 'starting change stream source');
    this.running.set(source._id, { projectId: source.project_id, kind, fingerprint, subscriber: stream });
  }

  private start(
    source: SourceDoc,
    project: { type: 'incoming' | 'outgoing'; maxPayloadBytes: number },
    fingerprint: string,
  ) {
    const ids = { project_id: source.project_id, source_id: source._id };
    const log = this.deps.logger.child(ids);
    let config;
    try {
      const pubSub = openBrokerCredentials(source.pub_sub!, (s) => this.deps.box.open(s));
      config = brokerSettings(source._id, pubSub, this.deps.env);
    } catch (err) {
      log.error({ err: errorMessage(err) }, 'broker source has unusable settings');
      void this.report(source.project_id, source._id, 'unreachable', errorMessage(err));
      return;
    }
    const { settings, workers } = config;
    const kind = settings.kind;
    log.info({ kind, broker: describeBroker(settings), workers }, 'starting broker source');
    const subscriber = startSubscriber(settings, {
      workers,
      prefetch: PREFETCH,
      logger: log,
      handle: countOutcomes(messageHandler(kind, source, project, this.deps), (outcome) =>
        this.messages.inc({ kind, outcome }),
      ),
      onState: this.stateReporter(source, kind),
      onRejected: (reason, disposal) => {
        this.messages.inc({ kind, outcome: disposal });
        log.error({ kind, reason, disposal }, `broker message ${disposal.replace('_', '-')}: ${reason}`);
      },
    });
    this.running.set(source._id, { projectId: source.project_id, kind, fingerprint, subscriber });
  }

  private async halt(sourceId: string): Promise<void> {
    const r = this.running.get(sourceId);
    if (!r) return;
    this.running.delete(sourceId);
    await r.subscriber.stop();
    this.up.remove({ source_id: sourceId, kind: r.kind });
    if (r.kind === 'mongodb' || r.kind === 'postgres') {
      this.lag.remove({ source_id: sourceId });
      this.behindBytes.remove({ source_id: sourceId });
      this.behindChanges.remove({ source_id: sourceId });
    }
    this.deps.logger.info({ source_id: sourceId, project_id: r.projectId }, 'broker source stopped');
  }

  /**
   * A source's state changes, for a broker subscriber and a change stream alike: the gauge and the
   * stored health each time, and one meta event per outage, not per reconnection attempt.
   */
  private stateReporter(source: SourceDoc, kind: string): (state: ReportedState, error?: string) => void {
    let unreachable = false;
    return (state, error) => {
      this.up.set({ source_id: source._id, kind }, state === 'consuming' ? 1 : 0);
      void this.report(source.project_id, source._id, state, error ?? null);
      // A lost resume point ends the stream: told once, then nothing until a restart from now.
      if (state === 'resume_lost') void this.announceHealth(source, 'source.resume_lost', error ?? null);
      else if (state === 'unreachable' && !unreachable) {
        unreachable = true;
        void this.announceHealth(source, 'source.unreachable', error ?? null);
      } else if (state === 'consuming' && unreachable) {
        unreachable = false;
        void this.announceHealth(source, 'source.recovered', null);
      }
    };
  }

  /** Tells the project (meta events, if it selected these types) that its broker went away or came back. */
  private async announceHealth(
    source: SourceDoc,
    eventType: 'source.unreachable' | 'source.recovered' | 'source.resume_lost',
    error: string | null,
  ): Promise<void> {
    await this.deps.publisher
      .publish('meta', [
        {
          project_id: source.project_id,
          event_type: eventType,
          data: { source_id: source._id, name: source.name, error, instance_id: this.deps.instanceId },
          occurred_at: new Date().toISOString(),
        },
      ])
      .catch((err: unknown) =>
        this.deps.logger.warn(
          { source_id: source._id, err: errorMessage(err) },
          'could not publish source health meta event',
        ),
      );
  }

  /** Health writes of one source go in order, so the stored state is the latest one. */
  private report(
    projectId: ProjectId,
    sourceId: string,
    state: ReportedState | 'stopped',
    error: string | null,
  ) {
    const write = () =>
      this.deps.store.sourceHealth
        .report(projectId, sourceId, state, error, this.deps.instanceId)
        .catch((err: unknown) =>
          this.deps.logger.warn(
            { source_id: sourceId, err: errorMessage(err) },
            'could not record source health',
          ),
        );
    const next = (this.reports.get(sourceId) ?? Promise.resolve()).then(write);
    this.reports.set(sourceId, next);
    void next.finally(() => {
      if (this.reports.get(sourceId) === next) this.reports.delete(sourceId);
    });
    return next;
  }
}

function countOutcomes(
  handle: ReturnType<typeof messageHandler>,
  count: (outcome: string) => void,
): ReturnType<typeof messageHandler> {
  return async (d) => {
    const v = await handle(d);
    if (v.kind === 'ack') count('accepted');
    else if (v.kind === 'retry') count('retry');
    return v;
  };
}
