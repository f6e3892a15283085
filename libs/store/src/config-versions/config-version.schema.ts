import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';

/**
 * A project's configuration version: one document per project, whose `token` is replaced (a fresh
 * random value, never incremented: concurrent writers cannot end on a value a reader already saw)
 * after every change to the project's configuration. Caches compare tokens to know whether what
 * they hold is still current.
 */
export interface ConfigVersionDoc {
  /** The project id. */
  _id: string;
  token: string;
  updated_at: Date;
}

export const configVersionSchema = new Schema<ConfigVersionDoc>(
  {
    _id: { type: String, required: true },
    token: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'config_versions', versionKey: false, _id: false },
);
// configVersions.read by _id ($in): the _id index serves it.

export const configVersionModel = (conn: Connection) =>
  conn.models.ConfigVersion ?? conn.model<ConfigVersionDoc>('ConfigVersion', configVersionSchema);
