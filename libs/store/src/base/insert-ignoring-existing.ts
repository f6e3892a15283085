import type { Model } from 'mongoose';

const DUPLICATE_KEY = 11000;

/**
 * Inserts documents whose ids may already exist (a redelivered message), in one unordered round
 * trip: duplicates are skipped, any other error is thrown. The driver is used directly because
 * upserts with $setOnInsert lose null and empty-array fields on the MongoDB-protocol test server.
 */
export async function insertIgnoringExisting<T>(model: Model<T>, docs: T[]): Promise<void> {
  try {
    await model.collection.insertMany(docs as never[], { ordered: false });
  } catch (err) {
    const errors = (err as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors;
    const list = Array.isArray(errors) ? errors : errors ? [errors] : [];
    const onlyDuplicates = list.length > 0 && list.every((e) => e.code === DUPLICATE_KEY);
    if (!onlyDuplicates && (err as { code?: number }).code !== DUPLICATE_KEY) throw err;
  }
}
