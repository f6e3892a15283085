import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * Which gateway replica holds a `cli` endpoint's `hookrail listen` stream (docs/cli.md): one
 * document per endpoint, written by the replica when the stream opens and removed when it closes,
 * so a relay call or an answer that reaches another replica is forwarded to the holder.
 */
export interface CliListenerDoc {
  /** The endpoint id. */
  _id: string;
  project_id: ProjectId;
  /** The stream's own id: a closing older stream does not remove a newer one's claim. */
  listener_id: string;
  /** The holding replica as the other replicas reach it (its pod address). */
  relay_url: string;
  instance_id: string;
  connected_at: Date;
}

const cliListenerSchema = new Schema<CliListenerDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    listener_id: { type: String, required: true },
    relay_url: { type: String, required: true },
    instance_id: { type: String, required: true },
    connected_at: { type: Date, required: true },
  },
  { collection: 'cli_listeners', versionKey: false, _id: false },
);
// find / claim / release by _id (endpoint id) with project_id checked: the _id index serves them.

export const cliListenerModel = (conn: Connection) =>
  conn.models.CliListener ?? conn.model<CliListenerDoc>('CliListener', cliListenerSchema);
