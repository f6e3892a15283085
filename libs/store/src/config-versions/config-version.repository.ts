import { randomBytes } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { rawCollection } from '../base/raw-collection';
import { configVersionModel, type ConfigVersionDoc } from './config-version.schema';

/** A project that never changed has no document: its token is this. */
export const INITIAL_CONFIG_TOKEN = '';

export class ConfigVersionRepository {
  private readonly model: Model<ConfigVersionDoc>;

  constructor(conn: Connection) {
    this.model = configVersionModel(conn) as Model<ConfigVersionDoc>;
  }

  /**
   * Marks the project's configuration changed; call it after the change itself was written, so a
   * reader that sees the new token reads the new configuration. Returns the new token.
   */
  async bump(projectId: ProjectId): Promise<string> {
    const token = randomBytes(9).toString('base64url');
    await rawCollection(this.model).updateOne(
      { _id: projectId },
      { $set: { token, updated_at: new Date() } },
      { upsert: true },
    );
    return token;
  }

  /** Removes a purged project's document. */
  async remove(projectId: ProjectId): Promise<void> {
    await rawCollection(this.model).deleteOne({ _id: projectId });
  }

  /** The current token of each project (one query for all of them). */
  async read(projectIds: readonly ProjectId[]): Promise<Map<ProjectId, string>> {
    const out = new Map<ProjectId, string>();
    if (projectIds.length === 0) return out;
    const docs = await rawCollection(this.model)
      .find({ _id: { $in: [...projectIds] } }, { projection: { token: 1 } })
      .toArray();
    for (const id of projectIds) out.set(id, INITIAL_CONFIG_TOKEN);
    for (const d of docs) out.set(d._id as ProjectId, d.token);
    return out;
  }
}
