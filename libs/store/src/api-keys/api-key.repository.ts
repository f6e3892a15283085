import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { apiKeyModel, type ApiKeyDoc } from './api-key.schema';

export class ApiKeyRepository extends ProjectScopedRepository<ApiKeyDoc> {
  constructor(conn: Connection) {
    super(apiKeyModel(conn) as Model<ApiKeyDoc>);
  }

  /** Authentication's entry point: the key id in the bearer token is what finds the project. */
  async findByKeyId(keyId: string): Promise<ApiKeyDoc | null> {
    return this.model.findOne({ _id: keyId, deleted_at: null }).lean<ApiKeyDoc>().exec();
  }
}
