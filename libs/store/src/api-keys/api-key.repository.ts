import type { Connection, Model } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { SoftDeletingRepository } from '../base/project-scoped.repository';
import { apiKeyModel, type ApiKeyDoc } from './api-key.schema';
import type { ProjectId } from '@hookrail/domain';

export class ApiKeyRepository extends SoftDeletingRepository<ApiKeyDoc> {
  constructor(conn: Connection) {
    super(apiKeyModel(conn) as Model<ApiKeyDoc>);
  }

  async page(projectId: ProjectId, req: PageRequest): Promise<Page<ApiKeyDoc>> {
    return this.pageWhere(projectId, {}, req);
  }

  /** Authentication's entry point: the key id in the bearer token is what finds the project. */
  async findByKeyId(keyId: string): Promise<ApiKeyDoc | null> {
    return this.model.findOne({ _id: keyId, deleted_at: null }).lean<ApiKeyDoc>().exec();
  }
}
