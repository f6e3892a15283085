import type { Model } from 'mongoose';
import { isDuplicateKey, rethrowTyped } from '../errors';

/**
 * Inserts documents whose ids may already exist (a redelivered message) in one unordered round
 * trip: the existing ones are left as they are (a duplicate `_id` is skipped), every other
 * document is inserted, and any other error is thrown. Plain inserts rather than upserts: one
 * index probe per document, and no update of what is already stored.
 */
export async function insertIgnoringExisting<T>(model: Model<T>, docs: T[]): Promise<void> {
  try {
    await model.collection.insertMany(docs as never[], { ordered: false });
  } catch (err) {
    if (!isDuplicateKey(err)) rethrowTyped(err);
  }
}
