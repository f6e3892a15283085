import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';

/**
 * Where a `db_change_stream` source resumes: the resume token of the last change whose event Kafka
 * accepted (source-consumer writes it only after that acknowledgement). One document per source.
 */
export interface ChangeStreamOffsetDoc {
  /** The source id. */
  _id: string;
  project_id: ProjectId;
  /** The database's resume token (MongoDB: the change's `_id`), stored as the server sent it. */
  token: Record<string, unknown> | null;
  /**
   * The operator's last "restart from now" request this offset was started for (the source's
   * `db_change_stream.restart_requested_at`): a newer request discards the token.
   */
  restart_requested_at: string | null;
  updated_at: Date;
}

const changeStreamOffsetSchema = new Schema<ChangeStreamOffsetDoc>(
  {
    _id: { type: String, required: true },
    project_id: { type: String, required: true },
    token: { type: Schema.Types.Mixed, default: null },
    restart_requested_at: { type: String, default: null },
    updated_at: { type: Date, required: true },
  },
  { collection: 'change_stream_offsets', versionKey: false, _id: false, minimize: false },
);
// Read and written by _id (the source id) only: the _id index serves every query, no migration.

export const changeStreamOffsetModel = (conn: Connection) =>
  conn.models.ChangeStreamOffset ??
  conn.model<ChangeStreamOffsetDoc>('ChangeStreamOffset', changeStreamOffsetSchema);
