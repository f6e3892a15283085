import { ALL } from '../list-keys/list-keys';
import type { Model, QueryFilter, UpdateQuery } from 'mongoose';
import { rethrowTyped } from '../errors';
import { cursorPage } from './cursor-page';
import type { Page, PageRequest } from './pagination';
import type { ProjectId } from '@hookrail/domain';
import { readInRuns, scopedIdsFilter, type ScopedId } from './scoped-ids';

/** A document every project-scoped collection shares. `_id` is a ULID, so ids sort by creation. */
export interface ScopedDoc {
  _id: string;
  project_id: ProjectId;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** What `update` may set: any field but the identity and the timestamps it manages itself. */
export type ScopedFields<T extends ScopedDoc> = Partial<
  Omit<T, '_id' | 'project_id' | 'created_at' | 'updated_at'>
>;

/** How many documents an unpaginated read returns at most. */
export const LIST_LIMIT = 10_000;

/**
 * Every method takes the project id first and adds it to the query itself, so no caller can forget
 * it: project isolation is a property of the data layer. Queries are built here and in the
 * subclasses only: callers pass typed parameters, never a MongoDB filter or update.
 *
 * This base is for append-only collections (events, deliveries, meta events), which are never
 * soft-deleted, so their queries carry no `deleted_at` condition (and their indexes no such key).
 */
export class ProjectScopedRepository<T extends ScopedDoc> {
  /**
   * Kinds of list key (their tag, `K|`) whose value picks out a handful of documents (an event's
   * deliveries, an idempotency key): a page selected by one is read in one query rather than in
   * time windows (cursor-page.ts).
   */
  protected readonly narrowingKeys: readonly string[] = [];

  /**
   * The collection is read through list keys (list-keys/): a filter that names no key gets `*`,
   * which every document carries, so that a read by id or of the whole project is on the index.
   */
  protected readonly keyed: boolean = false;

  /** What reads leave out: a keyed collection's list keys are the store's, never a caller's. */
  protected get hidden(): Record<string, 0> | undefined {
    return this.keyed ? { keys: 0 } : undefined;
  }

  /** A keyed collection's list keys of a document about to be written (list-keys/). */
  protected keysOf(_doc: Partial<T>): string[] | undefined {
    return undefined;
  }

  constructor(
    protected readonly model: Model<T>,
    private readonly softDeletes = false,
  ) {}

  protected scope(projectId: ProjectId, filter: QueryFilter<T> = {}): QueryFilter<T> {
    if (!projectId) throw new Error('project id is required for every query');
    const keys = this.keyed && !('keys' in filter) && !('$and' in filter) ? { keys: ALL } : {};
    return (
      this.softDeletes
        ? { ...filter, project_id: projectId, deleted_at: null }
        : { ...filter, ...keys, project_id: projectId }
    ) as QueryFilter<T>;
  }

  /**
   * The documents as callers see them: a subclass whose records are partly stored beside the
   * document adds them here (deliveries' retry outcomes). Every read below goes through it.
   */
  protected async complete(docs: T[]): Promise<T[]> {
    return docs;
  }

  async findById(projectId: ProjectId, id: string): Promise<T | null> {
    return this.findOneWhere(projectId, { _id: id } as QueryFilter<T>);
  }

  /**
   * Documents of several projects, a round trip per IDS_PER_QUERY, as stored (a keyed collection
   * on its `*` key; not completed, and without the `leaveOut` fields): null where none is, in the
   * order asked. For the sender's reads of many retries at once.
   */
  protected async findScoped(
    refs: readonly ScopedId[],
    leaveOut: Record<string, 0> = {},
  ): Promise<(T | null)[]> {
    if (refs.length === 0) return [];
    const docs = await readInRuns(refs, (run) =>
      this.model
        .find(scopedIdsFilter(run, this.keyed ? { keys: ALL } : {}) as QueryFilter<T>, {
          ...this.hidden,
          ...leaveOut,
        })
        .lean<T[]>()
        .exec(),
    );
    const found = new Map(docs.map((d) => [`${d.project_id}/${String(d._id)}`, d]));
    return refs.map((r) => found.get(`${r.projectId}/${r.id}`) ?? null);
  }

  async findByIds(projectId: ProjectId, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    return this.listWhere(projectId, { _id: { $in: [...ids] } } as QueryFilter<T>, ids.length);
  }

  /** Live documents of the project. */
  async count(projectId: ProjectId): Promise<number> {
    return this.model.countDocuments(this.scope(projectId)).exec();
  }

  /** Idempotent insert: a redelivered create with the same id changes nothing. Returns the stored document. */
  async insert(
    projectId: ProjectId,
    doc: Omit<T, 'project_id' | 'created_at' | 'updated_at' | 'deleted_at'> & Partial<ScopedDoc>,
  ): Promise<T> {
    const now = new Date();
    // The filter supplies _id and project_id to the inserted document. An id taken by another
    // project is a duplicate key (the insert the upsert attempts hits the primary key).
    const {
      _id,
      project_id: _ignored,
      ...fields
    } = {
      created_at: now,
      updated_at: now,
      deleted_at: null,
      ...doc,
      ...(this.keyed ? { keys: this.keysOf(doc as Partial<T>) } : {}),
    } as ScopedDoc & Record<string, unknown>;
    const stored = await this.model
      .findOneAndUpdate(
        { _id, project_id: projectId } as QueryFilter<T>,
        { $setOnInsert: fields } as UpdateQuery<T>,
        {
          upsert: true,
          returnDocument: 'after',
          projection: this.hidden,
        },
      )
      .lean<T>()
      .exec()
      .catch(rethrowTyped);
    if (!stored) throw new Error(`document ${_id} was not stored`);
    return stored;
  }

  /** `$set` of the given fields; returns the updated document or null when it is not in this project. */
  async update(projectId: ProjectId, id: string, set: ScopedFields<T>): Promise<T | null> {
    return this.model
      .findOneAndUpdate(
        this.scope(projectId, { _id: id } as QueryFilter<T>),
        { $set: { ...set, updated_at: new Date() } } as UpdateQuery<T>,
        { returnDocument: 'after', projection: this.hidden },
      )
      .lean<T>()
      .exec()
      .catch(rethrowTyped);
  }

  protected async findOneWhere(projectId: ProjectId, filter: QueryFilter<T>): Promise<T | null> {
    const doc = await this.model.findOne(this.scope(projectId, filter), this.hidden).lean<T>().exec();
    return doc && (await this.complete([doc]))[0];
  }

  /** Oldest first (ascending `_id`), at most `limit`. */
  protected async listWhere(projectId: ProjectId, filter: QueryFilter<T>, limit = LIST_LIMIT): Promise<T[]> {
    const docs = await this.model
      .find(this.scope(projectId, filter), this.hidden)
      .sort({ _id: 1 })
      .limit(limit)
      .lean<T[]>()
      .exec();
    return this.complete(docs);
  }

  /** Cursor pagination on `_id` (ULIDs sort by time). */
  protected async pageWhere(
    projectId: ProjectId,
    filter: QueryFilter<T>,
    req: PageRequest,
  ): Promise<Page<T>> {
    const keys = (filter as Record<string, unknown>).keys;
    const narrow = typeof keys === 'string' && this.narrowingKeys.some((tag) => keys.startsWith(tag));
    const page = await cursorPage(this.model, this.scope(projectId, filter), req, {
      windows: !narrow,
      projection: this.hidden,
    });
    return { ...page, content: await this.complete(page.content) };
  }
}

/**
 * Configuration collections (sources, endpoints, subscriptions, portal links, API keys): deleting
 * sets `deleted_at`, and every query sees live documents only (`deleted_at: null`, which their
 * indexes carry as an equality key).
 */
export class SoftDeletingRepository<T extends ScopedDoc> extends ProjectScopedRepository<T> {
  constructor(model: Model<T>) {
    super(model, true);
  }

  async softDelete(projectId: ProjectId, id: string): Promise<boolean> {
    const now = new Date();
    const res = await this.model
      .updateOne(this.scope(projectId, { _id: id } as QueryFilter<T>), {
        $set: { deleted_at: now, updated_at: now },
      } as UpdateQuery<T>)
      .exec();
    return res.modifiedCount > 0;
  }
}

/** `{field: value}` for the given values: equality for one, `$in` otherwise (none matches nothing). */
export function oneOf<V>(values: readonly V[]): V | { $in: V[] } {
  return values.length === 1 ? values[0] : { $in: [...values] };
}
