import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { cliListenerModel, type CliListenerDoc } from './cli-listener.schema';

export class CliListenerRepository {
  private readonly model: Model<CliListenerDoc>;

  constructor(conn: Connection) {
    this.model = cliListenerModel(conn) as Model<CliListenerDoc>;
  }

  /** The newest stream of the endpoint is on this replica (an upsert: the latest claim wins). */
  async claim(
    projectId: ProjectId,
    endpointId: string,
    holder: { listener_id: string; relay_url: string; instance_id: string },
  ): Promise<void> {
    await this.model
      .updateOne(
        { _id: endpointId, project_id: projectId },
        { $set: { ...holder, connected_at: new Date() } },
        { upsert: true },
      )
      .exec();
  }

  async find(projectId: ProjectId, endpointId: string): Promise<CliListenerDoc | null> {
    return this.model.findOne({ _id: endpointId, project_id: projectId }).lean<CliListenerDoc>().exec();
  }

  /** The stream closed: its claim goes, unless a newer stream took the endpoint since. */
  async release(projectId: ProjectId, endpointId: string, listenerId: string): Promise<void> {
    await this.model.deleteOne({ _id: endpointId, project_id: projectId, listener_id: listenerId }).exec();
  }
}
