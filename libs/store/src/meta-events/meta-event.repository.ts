import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { metaEventModel, type MetaEventDoc } from './meta-event.schema';

export class MetaEventRepository extends ProjectScopedRepository<MetaEventDoc> {
  constructor(conn: Connection) {
    super(metaEventModel(conn) as Model<MetaEventDoc>);
  }
}
