import { errorMessage } from '@hookrail/domain';
import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';
import { deliver, type ChangeStreamRun } from '../run';
import type { PostgresChangeStreamSettings } from '../settings';
import { lsnBefore, lsnValue } from './lsn';
import { pgClientConfig } from './pg-connect';
import { commitDate, pgChangeEvent, pgChanges, type PgTransaction } from './pg-event';

/** Changes accepted between two writes of the position while changes keep coming. */
const SAVE_EVERY = 100;
/** How often an accepted but unstored position is stored (and acknowledged) otherwise. */
const SAVE_INTERVAL_MS = 1000;

/** pgoutput, counting the messages received (so a keepalive can tell that all were handled). */
class CountingPlugin extends PgoutputPlugin {
  received = 0;
  override parse(buffer: Buffer): Pgoutput.Message {
    this.received++;
    return super.parse(buffer);
  }
}

/**
 * One replication connection of a postgres source. Messages are handled one at a time (the
 * client's flow control pauses the socket meanwhile), so each change reaches `accept` in commit
 * order. The position stored is the end of the last transaction whose kept changes Kafka all
 * accepted; it is acknowledged to the server (which may then recycle the WAL before it) only
 * once stored. A crash re-reads from the stored position: whole transactions, whose changes get
 * the same ids again.
 */
export class PgReader {
  private readonly s: PostgresChangeStreamSettings;
  private readonly plugin: CountingPlugin;
  private readonly service: LogicalReplicationService;
  private txn: (PgTransaction & { index: number }) | undefined;
  private accepted: string;
  private saved: string;
  private unsaved = 0;
  private processed = 0;
  private halted = false;
  private failure: unknown;
  private handling: Promise<void> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly run: ChangeStreamRun<PostgresChangeStreamSettings>,
    start: string,
    private readonly stopped: () => boolean,
  ) {
    this.s = run.settings;
    this.accepted = this.saved = start;
    this.plugin = new CountingPlugin({ protoVersion: 1, publicationNames: [this.s.publication] });
    // The client's own acknowledgements are off: it would confirm what it received, not what
    // Kafka accepted.
    this.service = new LogicalReplicationService(pgClientConfig(this.s, 10_000), {
      acknowledge: { auto: false, timeoutSeconds: 0 },
      flowControl: { enabled: true },
    });
  }

  /** Streams until the connection ends; rejects with the server's error unless stopped. */
  async read(onStarted: () => void): Promise<void> {
    const { service } = this;
    service.on('start', () => {
      onStarted();
      this.run.onState('consuming');
    });
    service.on('data', (_lsn: string, msg: Pgoutput.Message) => this.onMessage(msg));
    service.on('heartbeat', (lsn: string, _at: number, reply: boolean) => this.onKeepalive(lsn, reply));
    service.on('error', (err: unknown) => (this.failure ??= err));
    const timer = setInterval(() => void this.save(), SAVE_INTERVAL_MS);
    try {
      await service.subscribe(this.plugin, this.s.slot, this.saved);
    } finally {
      clearInterval(timer);
    }
    if (this.stopped()) return;
    throw this.failure ?? new Error('the server ended the replication connection');
  }

  /** Lets the change being accepted finish, stores the position, then ends the connection. */
  async close(): Promise<void> {
    this.halted = true;
    await this.handling;
    await this.save();
    await this.service.stop().catch(() => undefined);
    this.service.removeAllListeners();
    // An error the ended connection reports late must not go unheard (an unheard 'error' throws).
    this.service.on('error', () => undefined);
  }

  private onMessage(msg: Pgoutput.Message): Promise<void> {
    this.handling = this.handle(msg)
      .catch((err: unknown) => {
        // Read again from the stored position on a new connection: nothing after it is skipped.
        this.failure = err;
        this.halted = true;
        this.service.stop().catch(() => undefined);
      })
      .finally(() => this.processed++);
    return this.handling;
  }

  private async handle(msg: Pgoutput.Message): Promise<void> {
    if (this.halted) return;
    if (msg.tag === 'begin') {
      this.txn = { commitLsn: msg.commitLsn ?? '0/0', commitTime: commitDate(msg.commitTime), index: 0 };
    } else if (msg.tag === 'commit') {
      this.txn = undefined;
      if (msg.commitEndLsn) this.accepted = msg.commitEndLsn;
      if (this.unsaved >= SAVE_EVERY) await this.save();
    } else if (
      msg.tag === 'insert' ||
      msg.tag === 'update' ||
      msg.tag === 'delete' ||
      msg.tag === 'truncate'
    ) {
      await this.deliverChanges(msg);
    }
  }

  private async deliverChanges(msg: Parameters<typeof pgChanges>[0]): Promise<void> {
    const txn = this.txn;
    if (!txn) throw new Error(`a ${msg.tag} message outside a transaction`);
    for (const change of pgChanges(msg)) {
      const ev = pgChangeEvent(this.run.sourceId, txn, txn.index++, change, this.s);
      if (!ev) continue;
      if (!(await deliver(this.run, ev, this.stopped))) {
        this.halted = true;
        return;
      }
      this.run.onLag(Math.max(0, (Date.now() - ev.at.getTime()) / 1000));
      this.unsaved++;
    }
  }

  /**
   * A keepalive carries the server's position. When every message received so far is handled
   * and no transaction is open, nothing before that position is waiting: it may be stored, so
   * an idle source's slot does not hold the WAL of other tables' writes forever.
   */
  private onKeepalive(lsn: string, reply: boolean): void {
    const idle = !this.txn && !this.halted && this.plugin.received === this.processed;
    if (idle) {
      if (lsnValue(lsn) > lsnValue(this.accepted)) this.accepted = lsn;
      this.run.onLag(0);
    }
    if (reply) this.service.acknowledge(lsnBefore(this.saved)).catch(() => undefined);
  }

  /** Stores the accepted position, then confirms it to the server (in that order, one at a time). */
  private save(): Promise<void> {
    // Never rejects: it runs from a timer, and a failed save is tried again at the next one.
    this.saving = this.saving.then(async () => {
      const lsn = this.accepted;
      if (lsn === this.saved) return;
      try {
        await this.run.offsets.save({ token: { lsn }, restartRequestedAt: this.s.restartRequestedAt });
        this.saved = lsn;
        this.unsaved = 0;
        await this.service.acknowledge(lsnBefore(lsn));
      } catch (err) {
        this.run.logger.warn({ err: errorMessage(err) }, 'could not store or confirm the postgres position');
      }
    });
    return this.saving;
  }
}
