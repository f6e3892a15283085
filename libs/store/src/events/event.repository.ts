import { createHash } from 'node:crypto';
import type { Connection, Model, QueryFilter } from 'mongoose';
import { failedIndexes, isDuplicateKey } from '../errors';
import { idRange, type CreatedRange } from '../base/id-range';
import { rawCollection } from '../base/raw-collection';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Page, type PageRequest } from '../base/pagination';
import { ProjectScopedRepository, oneOf } from '../base/project-scoped.repository';
import { deliveryModel, type DeliveryDoc, type DeliveryStatus } from '../deliveries/delivery.schema';
import { derivedStatus, needsDeliveries } from './event-status';
import { eventModel, type EventDoc, type EventStatus } from './event.schema';
import { idempotencyClaimModel, type IdempotencyClaimDoc } from './idempotency-claim.schema';
import type { ProjectId } from '@hookrail/domain';

/** What the event lists select by; every field narrows (AND). */
export interface EventListFilter {
  ids?: readonly string[];
  sourceId?: string;
  /** Events that targeted any of these endpoints (none: no event). */
  endpointIds?: readonly string[];
  eventType?: string;
  idempotencyKey?: string;
  status?: EventStatus;
  /** By id time: when the event was accepted. */
  createdRange?: CreatedRange;
}

export interface IdempotencyClaim {
  projectId: ProjectId;
  key: string;
  eventId: string;
}

/** A hash of (project, key): the primary key itself makes the claim race-free. */
function claimId(projectId: ProjectId, key: string): string {
  return createHash('sha256').update(`${projectId}\0${key}`).digest('base64url');
}

export class EventRepository extends ProjectScopedRepository<EventDoc> {
  private readonly claims: Model<IdempotencyClaimDoc>;

  private readonly deliveries: Model<DeliveryDoc>;

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
   * A page of the project's events (the events API). A status filter is applied to the derived
   * status: candidates (stored with that status, or routed and not yet settled when stored) are
   * scanned in index order and kept when their status matches, at most STATUS_SCAN_LIMIT a call.
   */
  async page(projectId: ProjectId, filter: EventListFilter, req: PageRequest): Promise<Page<EventDoc>> {
    if (!filter.status) {
      const page = await this.pageWhere(projectId, where(filter), req);
      return { ...page, content: await this.withStatuses(projectId, page.content) };
    }
    const wanted = filter.status;
    const candidates = {
      ...where({ ...filter, status: undefined }),
      status: { $in: [wanted, 'Processing'] },
    };
    const perPage = req.perPage ?? DEFAULT_PER_PAGE;
    const kept: EventDoc[] = [];
    let scanned = 0;
    let cursor = req.cursor;
    let last: Page<EventDoc>;
    do {
      last = await this.pageWhere(projectId, candidates as QueryFilter<EventDoc>, {
        ...req,
        cursor,
        perPage: MAX_PER_PAGE,
      });
      scanned += last.content.length;
      const rows = await this.withStatuses(projectId, last.content);
      const chunk = rows.filter((e) => e.status === wanted);
      kept.push(...(req.direction === 'prev' ? chunk.reverse() : chunk));
      cursor = req.direction === 'prev' ? last.pagination.prev_page_cursor : last.pagination.next_page_cursor;
      const more = req.direction === 'prev' ? last.pagination.has_prev_page : last.pagination.has_next_page;
      if (!more) break;
    } while (kept.length < perPage && scanned < STATUS_SCAN_LIMIT);
    return statusPage(kept, perPage, req, last);
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
    return { project_id: projectId, event_id: { $in: eventIds } } as QueryFilter<DeliveryDoc>;
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
    await insertIgnoringExisting(this.model, docs);
  }
}

/** Events scanned at most by one status-filtered page call (the next call goes on from there). */
const STATUS_SCAN_LIMIT = 2000;

/**
 * The page of a status-filtered scan: `kept` in scan order. When the scan found more than a page,
 * the page ends at its last event; otherwise it ends where the scan stopped, so the next call goes
 * on from there.
 */
function statusPage(
  kept: EventDoc[],
  perPage: number,
  req: PageRequest,
  last: Page<EventDoc>,
): Page<EventDoc> {
  const backwards = req.direction === 'prev';
  const content = kept.slice(0, perPage);
  const cutShort = kept.length > perPage;
  const scanMore = backwards ? last.pagination.has_prev_page : last.pagination.has_next_page;
  const boundary = backwards ? last.pagination.prev_page_cursor : last.pagination.next_page_cursor;
  const farEnd = cutShort ? content[content.length - 1]._id : boundary;
  if (backwards) content.reverse();
  const near = (backwards ? content[content.length - 1]?._id : content[0]?._id) ?? req.cursor ?? '';
  return {
    content,
    pagination: {
      per_page: perPage,
      has_next_page: backwards ? Boolean(req.cursor) : cutShort || scanMore,
      has_prev_page: backwards ? cutShort || scanMore : Boolean(req.cursor),
      next_page_cursor: backwards ? near : farEnd,
      prev_page_cursor: backwards ? farEnd : near,
    },
  };
}

function where(f: EventListFilter): QueryFilter<EventDoc> {
  const q: Record<string, unknown> = {};
  const range = idRange(f.createdRange);
  if (f.ids && !range) q._id = oneOf(f.ids);
  else if (f.ids || range) q._id = { ...(f.ids ? { $in: [...f.ids] } : {}), ...range };
  if (f.sourceId !== undefined) q.source_id = f.sourceId;
  // an array field matches a value by membership
  if (f.endpointIds) q.endpoints = oneOf(f.endpointIds);
  if (f.eventType !== undefined) q.event_type = f.eventType;
  if (f.idempotencyKey !== undefined) q.idempotency_key = f.idempotencyKey;
  if (f.status !== undefined) q.status = f.status;
  return q as QueryFilter<EventDoc>;
}
