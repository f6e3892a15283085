import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { rethrowTyped } from '../errors';
import { cursorPage } from '../base/cursor-page';
import type { Page, PageRequest } from '../base/pagination';
import { scanPage } from '../base/scan-page';
import { containsIgnoringCase } from '../base/text-search';
import { projectModel, type ProjectDoc } from './project.schema';

/** Projects are the tenancy root, so this is the one repository not scoped by project id. */
export class ProjectRepository {
  private readonly model: Model<ProjectDoc>;
  constructor(conn: Connection) {
    this.model = projectModel(conn) as Model<ProjectDoc>;
  }

  async findById(id: ProjectId): Promise<ProjectDoc | null> {
    return this.model.findOne({ _id: id, deleted_at: null }).lean<ProjectDoc>().exec();
  }

  async insert(doc: Omit<ProjectDoc, 'created_at' | 'updated_at' | 'deleted_at'>): Promise<ProjectDoc> {
    const now = new Date();
    const full: ProjectDoc = { ...doc, created_at: now, updated_at: now, deleted_at: null };
    await this.model.create(full).catch(rethrowTyped);
    return full;
  }

  /**
   * Listing of live projects (all of them, or `only` those); `search`: those whose id is the text or whose name contains
   * it, ignoring case (no index serves a substring: tested on the bounded scan of base/scan-page).
   */
  async page(req: PageRequest, search?: string, only?: readonly ProjectId[]): Promise<Page<ProjectDoc>> {
    // `only`: a person's projects (those they hold a role in), never the others
    const live = only ? { deleted_at: null, _id: { $in: [...only] } } : { deleted_at: null };
    const all = (r: PageRequest) => cursorPage(this.model, live, r);
    const text = search?.trim();
    if (!text) return all(req);
    return scanPage(
      all,
      (rows) => rows.filter((p) => p._id === text || containsIgnoringCase(p.name, text)),
      req,
    );
  }

  async update(
    id: ProjectId,
    set: Partial<Omit<ProjectDoc, '_id' | 'created_at'>>,
  ): Promise<ProjectDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: id, deleted_at: null },
        { $set: { ...set, updated_at: new Date() } },
        { returnDocument: 'after' },
      )
      .lean<ProjectDoc>()
      .exec();
  }

  /** Live projects after `afterId` in id order (background jobs walk every project). */
  async listLiveAfter(afterId: ProjectId | null, limit: number): Promise<ProjectDoc[]> {
    return this.model
      .find({ deleted_at: null, ...(afterId !== null && { _id: { $gt: afterId as ProjectId } }) })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<ProjectDoc[]>()
      .exec();
  }

  /** Deleted projects whose data may still need purging, oldest deletion first. */
  async listDeleted(limit: number): Promise<ProjectDoc[]> {
    return this.model
      .find({ deleted_at: { $ne: null } })
      .sort({ deleted_at: 1 })
      .limit(limit)
      .lean<ProjectDoc[]>()
      .exec();
  }

  /** Removes a deleted project's own document for good (its data purged first). */
  async purge(id: ProjectId): Promise<void> {
    await this.model.deleteOne({ _id: id, deleted_at: { $ne: null } }).exec();
  }

  async softDelete(id: ProjectId): Promise<boolean> {
    const now = new Date();
    const res = await this.model
      .updateOne({ _id: id, deleted_at: null }, { $set: { deleted_at: now, updated_at: now } })
      .exec();
    return res.modifiedCount > 0;
  }
}
