import { Schema, type SchemaDefinition } from 'mongoose';

/** Fields every project-scoped collection has; `_id` is a ULID string. */
export function scopedSchema<T>(definition: SchemaDefinition, collection: string): Schema<T> {
  return new Schema<T>(
    {
      _id: { type: String, required: true },
      project_id: { type: String, required: true },
      ...definition,
      created_at: { type: Date, required: true },
      updated_at: { type: Date, required: true },
      deleted_at: { type: Date, default: null },
    },
    { collection, versionKey: false, minimize: false, strict: true, _id: false },
  );
}

export const Mixed = Schema.Types.Mixed;
