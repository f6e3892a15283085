import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { sourceModel, type SourceDoc } from './source.schema';

export class SourceRepository extends ProjectScopedRepository<SourceDoc> {
  constructor(conn: Connection) {
    super(sourceModel(conn) as Model<SourceDoc>);
  }

  /** Ingest's entry point: the mask id in the URL is what finds the project. */
  async findByMaskId(maskId: string): Promise<SourceDoc | null> {
    return this.model.findOne({ mask_id: maskId, deleted_at: null }).lean<SourceDoc>().exec();
  }
}
