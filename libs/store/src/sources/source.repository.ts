import type { Connection, Model, QueryFilter } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { SoftDeletingRepository } from '../base/project-scoped.repository';
import { sourceModel, type SourceDoc } from './source.schema';

export interface SourceListFilter {
  type?: SourceDoc['type'];
  name?: string;
}

export class SourceRepository extends SoftDeletingRepository<SourceDoc> {
  constructor(conn: Connection) {
    super(sourceModel(conn) as Model<SourceDoc>);
  }

  async page(projectId: string, filter: SourceListFilter, req: PageRequest): Promise<Page<SourceDoc>> {
    const q: QueryFilter<SourceDoc> = {};
    if (filter.type !== undefined) q.type = filter.type;
    if (filter.name !== undefined) q.name = filter.name;
    return this.pageWhere(projectId, q, req);
  }

  /** The live source with this name (names are unique within a project). */
  async findByName(projectId: string, name: string): Promise<SourceDoc | null> {
    return this.findOneWhere(projectId, { name });
  }

  /** Ingest's entry point: the mask id in the URL is what finds the project. */
  async findByMaskId(maskId: string): Promise<SourceDoc | null> {
    return this.model.findOne({ mask_id: maskId, deleted_at: null }).lean<SourceDoc>().exec();
  }
}
