import { hash } from 'node:crypto';
import type { Connection, Model, QueryFilter } from 'mongoose';
import { failedIndexes, isDuplicateKey } from '../errors';
import { idRange, type CreatedRange } from '../base/id-range';
import { rawCollection } from '../base/raw-collection';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import type { Page, PageRequest } from '../base/pagination';
import { scanPage } from '../base/scan-page';
import { ProjectScopedRepository, oneOf } from '../base/project-scoped.repository';
import type { ScopedId } from '../base/scoped-ids';
import { deliveryKey, eventKey, eventKeys, keysFilter } from '../list-keys/list-keys';
import { hasEveryWord, searchWords } from '../base/text-search';
import { deliveryModel, type DeliveryDoc, type DeliveryStatus } from '../deliveries/delivery.schema';
import { derivedStatus, needsDeliveries } from './event-status';
import { eventModel, type EventDoc, type EventStatus } from './event.schema';
import { idempotencyClaimModel, type IdempotencyClaimDoc } from './idempotency-claim.schema';
import type { ProjectId } from '@hookrail/domain';

/** What the event lists select by; every field narrows (AND). */
export interface EventListFilter {
  ids?: readonly string[];
  sourceId?: string;
  /** Events from any of these sources (none: no event); with `sourceId` too, both must hold. */
  sourceIds?: readonly string[];
  /** Events that targeted any of these endpoints (none: no event). */
  endpointIds?: readonly string[];
  eventType?: string;
  idempotencyKey?: string;
  status?: EventStatus;
  /** By id time: when the event was accepted. */
  createdRange?: CreatedRange;
  /** Events whose payload contains every word of this text, ignoring case (Convoy's `query`). */
  search?: string;
}

export interface IdempotencyClaim {
  projectId: ProjectId;
  key: string;
  eventId: string;
}

/** A hash of (project, key): the primary key itself makes the claim race-free. */
function claimId(projectId: ProjectId, key: string): string {
  return hash('sha256', `${projectId}\0${key}`, 'base64url');
}

export class EventRepository extends ProjectScopedRepository<EventDoc> {
  private readonly claims: Model<IdempotencyClaimDoc>;

  private readonly deliveries: Model<DeliveryDoc>;

  protected override readonly keyed = true;

  protected override readonly narrowingKeys = [eventKey.idempotency('')];

  constructor(conn: Connection) {
    super(eventModel(conn) as Model<EventDoc>);
    this.claims = idempotencyClaimModel(conn) as Model<IdempotencyClaimDoc>;
    this.deliveries = deliveryModel(conn) as Model<DeliveryDoc>;
  }

  override async findById(projectId: ProjectId, id: string): Promise<EventDoc | null> {
    const doc = await super.findById(projectId, id);
    return doc && (await this.withStatuses(projectId, [doc]))[0];
  }

  override async findByIds(projectId: ProjectId, ids: readonly string[]): Promise<EventDoc[]> {
    return this.withStatuses(projectId, await super.findByIds(projectId, ids));
  }

  /**
   * The sender's reads of the events of deliveries sent again, in one round trip and without the
   * derived status (a read of each event's deliveries the send does not need): null where none is,
   * in order.
   */
  async findManyForSend(refs: readonly ScopedId[]): Promise<(EventDoc | null)[]> {
    return this.findScoped(refs);
  }

  /**
   * A page of the project's events (the events API). The status and search filters are not index
   * keys: the status is derived when read, and the payload is text no index can search. With
   * either, candidates (by the other filters; for a status, stored with it or routed and not yet
   * settled when stored) are scanned in index order and kept when they match (base/scan-page.ts).
   */
  async page(projectId: ProjectId, filter: EventListFilter, req: PageRequest): Promise<Page<EventDoc>> {
    const words = filter.search === undefined ? [] : searchWords(filter.search);
    if (!filter.status && words.length === 0) {
      const page = await this.pageWhere(projectId, where(filter), req);
      return { ...page, content: await this.withStatuses(projectId, page.content) };
    }
    const wanted = filter.status;
    const candidates = {
      ...where({ ...filter, status: undefined }),
      ...(wanted ? { status: { $in: [wanted, 'Processing'] } } : {}),
    } as QueryFilter<EventDoc>;
    const page = await scanPage(
      (r) => this.pageWhere(projectId, candidates, r),
      async (rows) => {
        // The text first: statuses are read only for the rows it keeps.
        const hits = rows.filter((e) => hasEveryWord(e.raw, words));
        if (!wanted) return hits;
        return (await this.withStatuses(projectId, hits)).filter((e) => e.status === wanted);
      },
      req,
    );
    return wanted ? page : { ...page, content: await this.withStatuses(projectId, page.content) };
  }

  /** Matching events oldest first, at most `limit` (batch replay). */
  async list(projectId: ProjectId, filter: EventListFilter, limit: number): Promise<EventDoc[]> {
    return this.withStatuses(projectId, await this.listWhere(projectId, where(filter), limit));
  }

  /** Events with their status derived from their deliveries where routing left it open (event-status.ts). */
  private async withStatuses(projectId: ProjectId, docs: EventDoc[]): Promise<EventDoc[]> {
    const open = docs.filter(needsDeliveries).map((d) => d._id);
    if (open.length === 0) return docs;
    const rows = await this.deliveries
      .find(this.deliveryScope(projectId, open), { event_id: 1, status: 1 })
      .lean<{ event_id: string; status: DeliveryStatus }[]>()
      .exec();
    const found = new Map<string, DeliveryStatus[]>();
    for (const r of rows) found.set(r.event_id, [...(found.get(r.event_id) ?? []), r.status]);
    return docs.map((d) =>
      needsDeliveries(d) ? { ...d, status: derivedStatus(d, found.get(d._id) ?? []) } : d,
    );
  }

  private deliveryScope(projectId: ProjectId, eventIds: string[]): QueryFilter<DeliveryDoc> {
    return {
      project_id: projectId,
      keys: { $in: eventIds.map(deliveryKey.event) },
    } as QueryFilter<DeliveryDoc>;
  }

  protected override keysOf(doc: EventDoc): string[] {
    return eventKeys(doc);
  }

  /**
   * One event, only if it targeted one of `endpointIds` (a portal link's view). Read by primary key,
   * the targets checked on the one document.
   */
  async findTargeting(
    projectId: ProjectId,
    id: string,
    endpointIds: readonly string[],
  ): Promise<EventDoc | null> {
    const event = await this.findById(projectId, id);
    return event && event.endpoints.some((e) => endpointIds.includes(e)) ? event : null;
  }

  /**
   * Claims many idempotency keys in one round trip (plus one read when some were taken). Returns,
   * for each claim in order, the id of the event that owns its key: its own, or an earlier one's.
   */
  async claimIdempotencyKeys(claims: readonly IdempotencyClaim[]): Promise<string[]> {
    if (claims.length === 0) return [];
    const now = new Date();
    const docs = claims.map((c) => ({
      _id: claimId(c.projectId, c.key),
      project_id: c.projectId,
      event_id: c.eventId,
      created_at: now,
    }));
    const taken = new Set<number>();
    try {
      await rawCollection(this.claims).insertMany(docs, { ordered: false });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      for (const i of failedIndexes(err)) taken.add(i);
    }
    if (taken.size === 0) return claims.map((c) => c.eventId);
    const ids = [...taken].map((i) => docs[i]._id);
    const owners = new Map(
      (
        await this.claims
          .find({ _id: { $in: ids } })
          .lean<IdempotencyClaimDoc[]>()
          .exec()
      ).map((o) => [o._id, o]),
    );
    return claims.map((c, i) => {
      if (!taken.has(i)) return c.eventId;
      const owner = owners.get(docs[i]._id);
      if (!owner || owner.project_id !== c.projectId)
        throw new Error(`idempotency claim ${docs[i]._id} vanished`);
      return owner.event_id;
    });
  }

  /** Inserts events that do not exist yet, in one round trip; existing ids are left untouched. */
  async insertManyIfAbsent(docs: EventDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await insertIgnoringExisting(
      this.model,
      docs.map((d) => ({ ...d, keys: eventKeys(d) })),
    );
  }
}

function where(f: EventListFilter): QueryFilter<EventDoc> {
  const q: Record<string, unknown> = {};
  const range = idRange(f.createdRange);
  if (f.ids && !range) q._id = oneOf(f.ids);
  else if (f.ids || range) q._id = { ...(f.ids ? { $in: [...f.ids] } : {}), ...range };
  const sources =
    f.sourceIds && f.sourceId !== undefined
      ? f.sourceIds.filter((s) => s === f.sourceId)
      : (f.sourceIds ?? (f.sourceId !== undefined ? [f.sourceId] : undefined));
  const required: string[][] = [];
  if (sources) required.push(sources.map(eventKey.source));
  if (f.endpointIds) required.push(f.endpointIds.map(eventKey.endpoint));
  if (f.idempotencyKey !== undefined) required.push([eventKey.idempotency(f.idempotencyKey)]);
  Object.assign(q, keysFilter(required));
  if (f.eventType !== undefined) q.event_type = f.eventType;
  if (f.status !== undefined) q.status = f.status;
  return q as QueryFilter<EventDoc>;
}
