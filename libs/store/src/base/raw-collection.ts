import type { Model, mongo } from 'mongoose';

/**
 * The driver's collection behind a model, typed with the document shape (string ids). Hot-path
 * bulk writes go to it directly: mongoose would cast every operation of a batch again.
 */
export function rawCollection<T extends { _id: string }>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
