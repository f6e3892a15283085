import type { mongo } from 'mongoose';
import type { Migration } from './migration';

/**
 * Failed retries that leave a delivery in `Retry`, appended beside its document instead of written
 * into it (docs/database.md, "Retry outcomes"), read by delivery within its project. Deliveries
 * stored before keep their attempts in their document; nothing is rewritten.
 */
export const retryOutcomes: Migration = {
  id: 6,
  name: 'retry-outcomes',
  description:
    'delivery_retry_outcomes (failed retries appended beside their delivery), by project and delivery',
  async up(db: mongo.Db) {
    await db.createCollection('delivery_retry_outcomes').catch((err: { codeName?: string }) => {
      if (err.codeName !== 'NamespaceExists') throw err;
    });
    await db.collection('delivery_retry_outcomes').createIndex({ project_id: 1, delivery_id: 1 });
  },
};
