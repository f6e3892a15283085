import type { Connection, Model } from 'mongoose';
import { projectModel, type ProjectDoc } from './project.schema';

/** Projects are the tenancy root, so this is the one repository not scoped by project id. */
export class ProjectRepository {
  readonly model: Model<ProjectDoc>;
  constructor(conn: Connection) {
    this.model = projectModel(conn) as Model<ProjectDoc>;
  }

  async findById(id: string): Promise<ProjectDoc | null> {
    return this.model.findOne({ _id: id, deleted_at: null }).lean<ProjectDoc>().exec();
  }

  async insert(doc: Omit<ProjectDoc, 'created_at' | 'updated_at' | 'deleted_at'>): Promise<ProjectDoc> {
    const now = new Date();
    const full: ProjectDoc = { ...doc, created_at: now, updated_at: now, deleted_at: null };
    await this.model.create(full);
    return full;
  }
}
