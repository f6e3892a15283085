import type { Connection, Model, QueryFilter } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { SoftDeletingRepository } from '../base/project-scoped.repository';
import { sourceModel, type SourceDoc } from './source.schema';
import type { ProjectId } from '@hookrail/domain';

export interface SourceListFilter {
  type?: SourceDoc['type'];
  provider?: string;
  name?: string;
}

export class SourceRepository extends SoftDeletingRepository<SourceDoc> {
  constructor(conn: Connection) {
    super(sourceModel(conn) as Model<SourceDoc>);
  }

  async page(projectId: ProjectId, filter: SourceListFilter, req: PageRequest): Promise<Page<SourceDoc>> {
    const q: QueryFilter<SourceDoc> = {};
    if (filter.type !== undefined) q.type = filter.type;
    if (filter.provider !== undefined) q.provider = filter.provider;
    if (filter.name !== undefined) q.name = filter.name;
    return this.pageWhere(projectId, q, req);
  }

  /** The live source with this name (names are unique within a project). */
  async findByName(projectId: ProjectId, name: string): Promise<SourceDoc | null> {
    return this.findOneWhere(projectId, { name });
  }

  /**
   * Every live source source-consumer runs (`pub_sub` brokers, `db_change_stream` databases) of
   * every project, fields for assigning them to replicas only; the caller decides which runs which.
   */
  async listBrokerSources(): Promise<Pick<SourceDoc, '_id' | 'project_id'>[]> {
    return this.model
      .find({ type: { $in: ['pub_sub', 'db_change_stream'] }, deleted_at: null }, { _id: 1, project_id: 1 })
      .lean<Pick<SourceDoc, '_id' | 'project_id'>[]>()
      .exec();
  }

  /** Ingest's entry point: the mask id in the URL is what finds the project. */
  async findByMaskId(maskId: string): Promise<SourceDoc | null> {
    return this.model.findOne({ mask_id: maskId, deleted_at: null }).lean<SourceDoc>().exec();
  }
}
