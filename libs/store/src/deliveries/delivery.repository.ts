import type { Connection, Model, QueryFilter } from 'mongoose';
import { idRange, type CreatedRange } from '../base/id-range';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import type { Page, PageRequest } from '../base/pagination';
import { LIST_LIMIT, ProjectScopedRepository } from '../base/project-scoped.repository';
import { ALL, deliveryKey, deliveryKeys, keysFilter } from '../list-keys/list-keys';
import { rawCollection } from '../base/raw-collection';
import { failedIndexes, isDuplicateKey } from '../errors';
import { countCapped } from '../base/sorted-find';
import {
  appendsRetryOutcome,
  firstDocument,
  outcomeUpsert,
  processingUpsert,
  retryOutcomeDocument,
  type DeliveryOutcome,
} from './delivery-outcome';
import { deliveryModel, type DeliveryDoc, type DeliveryStatus } from './delivery.schema';
import {
  foldRetryOutcomes,
  mayHaveRetryOutcomes,
  withRetryState,
  type RetryState,
} from './fold-retry-outcomes';
import { retryOutcomeModel, type RetryOutcomeDoc } from './retry-outcome.schema';
import { eventModel, type EventDoc } from '../events/event.schema';
import { scanPage } from '../base/scan-page';
import { readInRuns, scopedIdsFilter, type ScopedId } from '../base/scoped-ids';
import { hasEveryWord, searchWords } from '../base/text-search';
import type { ProjectId } from '@hookrail/domain';

/** What the delivery lists select by; every field narrows (AND). */
export interface DeliveryListFilter {
  eventId?: string;
  /** Deliveries to any of these endpoints (none: no delivery). */
  endpointIds?: readonly string[];
  subscriptionId?: string;
  statuses?: readonly DeliveryStatus[];
  /** By id time: when the delivery's event was accepted (a replay's copy: when it was made). */
  createdRange?: CreatedRange;
  /** Every word in the body sent (the subscription function's output, else the event's payload). */
  search?: string;
}

/** An appended retry outcome as a send reads it: where the delivery stands, not what was sent. */
const OUTCOME_WITHOUT_ATTEMPT = {
  'attempt.request_headers_json': 0,
  'attempt.response_headers_json': 0,
  'attempt.response_data': 0,
} as const;

export class DeliveryRepository extends ProjectScopedRepository<DeliveryDoc> {
  protected override readonly keyed = true;

  protected override readonly narrowingKeys = [deliveryKey.event('')];
  private readonly events: Model<EventDoc>;
  private readonly retryOutcomes: Model<RetryOutcomeDoc>;

  constructor(conn: Connection) {
    super(deliveryModel(conn) as Model<DeliveryDoc>);
    this.events = eventModel(conn) as Model<EventDoc>;
    this.retryOutcomes = retryOutcomeModel(conn) as Model<RetryOutcomeDoc>;
  }

  /** Every read of a delivery shows it with its appended retry outcomes (fold-retry-outcomes.ts). */
  protected override complete(docs: DeliveryDoc[]): Promise<DeliveryDoc[]> {
    return this.folded(docs, { attempts: true });
  }

  /**
   * The deliveries with their appended retry outcomes, a query per IDS_PER_QUERY of them (none
   * when none has spent a retry); without `attempts`, the outcomes' attempts are not read either.
   */
  private async folded<D extends DeliveryDoc>(docs: D[], opts: { attempts: boolean }): Promise<D[]> {
    const retried = docs.filter(mayHaveRetryOutcomes);
    if (retried.length === 0) return docs;
    const outcomes = await readInRuns(retried, (run) =>
      this.retryOutcomes
        .find(
          scopedIdsFilter(
            run.map((d) => ({ projectId: d.project_id, id: d._id })),
            {},
            'delivery_id',
          ) as QueryFilter<RetryOutcomeDoc>,
          opts.attempts ? {} : OUTCOME_WITHOUT_ATTEMPT,
        )
        .lean<RetryOutcomeDoc[]>()
        .exec(),
    );
    if (outcomes.length === 0) return docs;
    const byDelivery = new Map<string, RetryOutcomeDoc[]>();
    for (const o of outcomes) {
      const key = `${o.project_id}/${o.delivery_id}`;
      const theirs = byDelivery.get(key);
      if (theirs) theirs.push(o);
      else byDelivery.set(key, [o]);
    }
    return docs.map((d) => foldRetryOutcomes(d, byDelivery.get(`${d.project_id}/${d._id}`) ?? []));
  }

  /**
   * A page of the project's deliveries (the deliveries API, the portal). A search is no index key:
   * candidates by the other filters are scanned in index order (base/scan-page.ts), the body each
   * sent read from the delivery (a function's output) or its event's payload, one query per step.
   */
  async page(projectId: ProjectId, filter: DeliveryListFilter, req: PageRequest): Promise<Page<DeliveryDoc>> {
    const words = filter.search === undefined ? [] : searchWords(filter.search);
    if (words.length === 0) return this.pageWhere(projectId, where(filter), req);
    return scanPage(
      (r) => this.pageWhere(projectId, where(filter), r),
      async (rows) => {
        const bodies = await this.eventPayloads(
          projectId,
          rows.filter((d) => d.payload === null || d.payload === undefined).map((d) => d.event_id),
        );
        return rows.filter((d) => hasEveryWord(d.payload ?? bodies.get(d.event_id) ?? '', words));
      },
      req,
    );
  }

  /** The stored payload (`raw`) of each of these events, by id. */
  async eventPayloads(projectId: ProjectId, eventIds: readonly string[]): Promise<Map<string, string>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.events
      .find(
        { project_id: projectId, keys: ALL, _id: { $in: [...new Set(eventIds)] } } as QueryFilter<EventDoc>,
        {
          raw: 1,
        },
      )
      .lean<{ _id: string; raw: string }[]>()
      .exec();
    return new Map(rows.map((r) => [r._id, r.raw ?? '']));
  }

  /** Matching deliveries oldest first, at most `limit` (batch retry). */
  async list(projectId: ProjectId, filter: DeliveryListFilter, limit: number): Promise<DeliveryDoc[]> {
    return this.listWhere(projectId, where(filter), limit);
  }

  /** Every delivery of the given events, oldest first (what an event targeted; replay). */
  async listByEvents(
    projectId: ProjectId,
    eventIds: readonly string[],
    limit = LIST_LIMIT,
  ): Promise<DeliveryDoc[]> {
    if (eventIds.length === 0) return [];
    return this.listWhere(projectId, keysFilter([eventIds.map(deliveryKey.event)]), limit);
  }

  /**
   * How many of the project's (or one endpoint's) deliveries have this status, counting at most
   * `cap` (newest first, in time windows): the console's retry backlog.
   */
  async countWithStatus(
    projectId: ProjectId,
    status: DeliveryStatus,
    endpointId: string | null,
    cap: number,
  ): Promise<number> {
    const key = endpointId ? deliveryKey.endpointStatus(endpointId, status) : deliveryKey.status(status);
    return countCapped(this.model, this.scope(projectId, { keys: key }), cap);
  }

  /**
   * An endpoint's held deliveries: `Scheduled` with a next attempt time (paused, inactive,
   * circuit open), oldest first.
   */
  async listHeld(projectId: ProjectId, endpointId: string, limit: number): Promise<DeliveryDoc[]> {
    return this.listWhere(
      projectId,
      { keys: deliveryKey.endpointStatus(endpointId, 'Scheduled'), next_attempt_at: { $ne: null } },
      limit,
    );
  }

  /**
   * One delivery, only if it goes to one of `endpointIds` (a portal link's view). Read by primary
   * key, the endpoint checked on the one document.
   */
  async findToEndpoints(
    projectId: ProjectId,
    id: string,
    endpointIds: readonly string[],
  ): Promise<DeliveryDoc | null> {
    const delivery = await this.findById(projectId, id);
    return delivery && endpointIds.includes(delivery.endpoint_id) ? delivery : null;
  }

  /** The sender's read of the delivery it is about to send. */
  async findForSend(projectId: ProjectId, id: string): Promise<DeliveryDoc | null> {
    return (await this.findManyForSend([{ projectId, id }]))[0];
  }

  /**
   * The sender's reads of several deliveries (a query per IDS_PER_QUERY), without their attempts
   * (a send never reads them): null where none is, in order. A delivery that spent retries is
   * shown with its appended outcomes, from `known` (what this process appended: no second read)
   * when that still holds, else read in a second round trip.
   */
  async findManyForSend(
    refs: readonly ScopedId[],
    known: (ref: ScopedId) => RetryState | undefined = () => undefined,
  ): Promise<(DeliveryDoc | null)[]> {
    const found = await this.findScoped(refs, { attempts: 0 });
    const shown = found.map((d) => {
      const state = d && mayHaveRetryOutcomes(d) ? known({ projectId: d.project_id, id: d._id }) : undefined;
      return { doc: d, standing: state && d ? withRetryState(d, state) : null };
    });
    const unknown = shown.filter((s) => s.doc && !s.standing).map((s) => s.doc!);
    const folded = new Map(
      (await this.folded(unknown, { attempts: false })).map((d) => [`${d.project_id}/${d._id}`, d]),
    );
    return shown.map(
      ({ doc, standing }) => standing ?? (doc && folded.get(`${doc.project_id}/${doc._id}`)) ?? null,
    );
  }

  /** Inserts deliveries that do not exist yet (ids are deterministic), in one round trip. */
  async insertManyIfAbsent(docs: DeliveryDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await insertIgnoringExisting(
      this.model,
      docs.map((d) => ({ ...d, keys: deliveryKeys(d, d.status) })),
    );
  }

  protected override keysOf(doc: DeliveryDoc): string[] {
    return deliveryKeys(doc, doc.status ?? 'Scheduled');
  }

  /**
   * Held deliveries released early (their endpoint activated): their next attempt is now `at`, so
   * the retry fired for it is not taken for an earlier one fired again (libs/delivery
   * load-delivery). Only those still `Scheduled`: one attempted meanwhile keeps its own time.
   */
  async releaseHeld(projectId: ProjectId, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.model
      .updateMany(this.scope(projectId, { _id: { $in: [...ids] }, status: 'Scheduled' }), {
        $set: { next_attempt_at: at, updated_at: new Date() },
        $inc: { rev: 1 },
      })
      .exec();
  }

  /**
   * Manual resend: the deliveries go back to `Scheduled` with no next attempt time, keeping their
   * attempts and spent retries.
   */
  async markForResend(projectId: ProjectId, ids: readonly string[], reason: string): Promise<void> {
    if (ids.length === 0) return;
    // The status is in the list keys, which name the endpoint: each document gets its own.
    const rows = await this.model
      .find(this.scope(projectId, { _id: { $in: [...ids] } }), { event_id: 1, endpoint_id: 1 })
      .lean<Pick<DeliveryDoc, '_id' | 'event_id' | 'endpoint_id'>[]>()
      .exec();
    if (rows.length === 0) return;
    const updated_at = new Date();
    await rawCollection(this.model).bulkWrite(
      rows.map((d) => ({
        updateOne: {
          filter: { _id: d._id, project_id: projectId },
          update: {
            $set: {
              status: 'Scheduled',
              keys: deliveryKeys(d, 'Scheduled'),
              status_reason: reason,
              next_attempt_at: null,
              updated_at,
            },
            $inc: { rev: 1 },
          },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Records outcomes (attempts, statuses, holds), batched. A first record is an insert of the
   * whole document (it carries its first attempt): one cheap write per delivery on the way to
   * Success. A failed retry that leaves the delivery in `Retry` is an insert beside it
   * (appendsRetryOutcome). Every other outcome, and a first record whose document exists after
   * all (a redelivered message), is an upsert that appends the attempt and increments the counters.
   */
  async recordOutcomes(outcomes: readonly DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = new Date();
    const collection = rawCollection(this.model);
    const appended = outcomes.filter(appendsRetryOutcome);
    if (appended.length > 0)
      await insertIgnoringExisting(
        this.retryOutcomes,
        appended.map((o) => retryOutcomeDocument(o, now)),
      );
    const firsts = outcomes.filter((o) => o.firstRecord);
    const updates = outcomes.filter((o) => !o.firstRecord && !appendsRetryOutcome(o));
    if (firsts.length > 0) {
      try {
        await collection.insertMany(
          firsts.map((o) => firstDocument(o, now)),
          { ordered: false },
        );
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        for (const i of failedIndexes(err)) updates.push(firsts[i]);
      }
    }
    if (updates.length > 0)
      await collection.bulkWrite(
        updates.map((o) => outcomeUpsert(o, now)),
        { ordered: false },
      );
  }

  /**
   * at_most_once: marks the delivery `Processing` (creating it if needed) before its request goes
   * out, atomically, and returns the status it had before (null: it did not exist). A delivery
   * already `Processing` was interrupted mid-send and must not be sent again.
   */
  async markProcessing(delivery: DeliveryDoc): Promise<DeliveryStatus | null> {
    const { filter, update } = processingUpsert(delivery, new Date());
    const before = await rawCollection(this.model).findOneAndUpdate(filter, update, {
      upsert: true,
      returnDocument: 'before',
      projection: { status: 1 },
    });
    return (before?.status as DeliveryStatus | undefined) ?? null;
  }
}

function where(f: DeliveryListFilter): QueryFilter<DeliveryDoc> {
  const q: Record<string, unknown> = {};
  const range = idRange(f.createdRange);
  if (range) q._id = range;
  Object.assign(q, keysFilter(requiredKeys(f)));
  if (f.subscriptionId !== undefined) q.subscription_id = f.subscriptionId;
  return q as QueryFilter<DeliveryDoc>;
}

/** An endpoint with statuses is one kind of key (`ES|`), every pair of the two an alternative. */
function requiredKeys(f: DeliveryListFilter): string[][] {
  const required: string[][] = [];
  if (f.eventId !== undefined) required.push([deliveryKey.event(f.eventId)]);
  const { endpointIds: endpoints, statuses } = f;
  if (endpoints && statuses)
    required.push(endpoints.flatMap((e) => statuses.map((s) => deliveryKey.endpointStatus(e, s))));
  else if (endpoints) required.push(endpoints.map(deliveryKey.endpoint));
  else if (statuses) required.push(statuses.map(deliveryKey.status));
  return required;
}
