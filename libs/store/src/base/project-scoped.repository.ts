import type { Model, QueryFilter, UpdateQuery } from 'mongoose';
import { cursorPage } from './cursor-page';
import type { Page, PageRequest } from './pagination';

/** A document every project-scoped collection shares. `_id` is a ULID, so ids sort by creation. */
export interface ScopedDoc {
  _id: string;
  project_id: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/**
 * Every method takes the project id first and adds it to the query itself, so no caller can forget
 * it: project isolation is a property of the data layer. Soft-deleted documents are invisible.
 */
export class ProjectScopedRepository<T extends ScopedDoc> {
  constructor(protected readonly model: Model<T>) {}

  protected scope(projectId: string, filter: QueryFilter<T> = {}): QueryFilter<T> {
    if (!projectId) throw new Error('project id is required for every query');
    return { ...filter, project_id: projectId, deleted_at: null } as QueryFilter<T>;
  }

  async findById(projectId: string, id: string): Promise<T | null> {
    return this.model
      .findOne(this.scope(projectId, { _id: id } as QueryFilter<T>))
      .lean<T>()
      .exec();
  }

  async findByIds(projectId: string, ids: string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    return this.model
      .find(this.scope(projectId, { _id: { $in: ids } } as QueryFilter<T>))
      .lean<T[]>()
      .exec();
  }

  async findOne(projectId: string, filter: QueryFilter<T>): Promise<T | null> {
    return this.model.findOne(this.scope(projectId, filter)).lean<T>().exec();
  }

  async findMany(projectId: string, filter: QueryFilter<T> = {}, limit = 1000): Promise<T[]> {
    return this.model.find(this.scope(projectId, filter)).sort({ _id: 1 }).limit(limit).lean<T[]>().exec();
  }

  async count(projectId: string, filter: QueryFilter<T> = {}): Promise<number> {
    return this.model.countDocuments(this.scope(projectId, filter)).exec();
  }

  /** Idempotent insert: a redelivered create with the same id changes nothing. Returns the stored document. */
  async insert(
    projectId: string,
    doc: Omit<T, 'project_id' | 'created_at' | 'updated_at' | 'deleted_at'> & Partial<ScopedDoc>,
  ): Promise<T> {
    const now = new Date();
    const full = {
      created_at: now,
      updated_at: now,
      deleted_at: null,
      ...doc,
      project_id: projectId,
    } as unknown as T;
    await this.model
      .updateOne({ _id: full._id } as QueryFilter<T>, { $setOnInsert: full } as UpdateQuery<T>, {
        upsert: true,
      })
      .exec();
    const stored = await this.model
      .findOne({ _id: full._id, project_id: projectId } as QueryFilter<T>)
      .lean<T>()
      .exec();
    if (!stored) throw new Error(`document ${full._id} belongs to another project`);
    return stored;
  }

  /** `$set` of the given fields; returns the updated document or null when it is not in this project. */
  async update(
    projectId: string,
    id: string,
    set: Partial<T>,
    extra: UpdateQuery<T> = {},
  ): Promise<T | null> {
    return this.model
      .findOneAndUpdate(
        this.scope(projectId, { _id: id } as QueryFilter<T>),
        { ...extra, $set: { ...(extra.$set ?? {}), ...set, updated_at: new Date() } } as UpdateQuery<T>,
        { returnDocument: 'after' },
      )
      .lean<T>()
      .exec();
  }

  async softDelete(projectId: string, id: string): Promise<boolean> {
    const now = new Date();
    const res = await this.model
      .updateOne(this.scope(projectId, { _id: id } as QueryFilter<T>), {
        $set: { deleted_at: now, updated_at: now },
      } as UpdateQuery<T>)
      .exec();
    return res.modifiedCount > 0;
  }

  /** Cursor pagination on `_id` (ULIDs sort by time). */
  async page(projectId: string, filter: QueryFilter<T>, req: PageRequest): Promise<Page<T>> {
    return cursorPage(this.model, this.scope(projectId, filter), req);
  }
}
