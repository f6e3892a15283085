import type { mongo } from 'mongoose';
import type { Migration } from './migration';

/**
 * The collection of the change-stream sources' resume points. Read and written by `_id` (the
 * source's id) only, so it needs no index of its own.
 */
export const changeStreamOffsets: Migration = {
  id: 4,
  name: 'change-stream-offsets',
  description: 'the change_stream_offsets collection (resume points of db_change_stream sources)',
  async up(db: mongo.Db) {
    await db.createCollection('change_stream_offsets').catch((err: { codeName?: string }) => {
      if (err.codeName !== 'NamespaceExists') throw err;
    });
  },
};
