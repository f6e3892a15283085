import type { Migration } from './migration';

/** The audit log's collection and its one index (a project's records, newest first). */
export const auditLog: Migration = {
  id: 2,
  name: 'audit-log',
  description: 'the audit_log collection and its index by project, newest first',
  async up(db) {
    await db.createCollection('audit_log').catch((err: { codeName?: string }) => {
      if (err.codeName !== 'NamespaceExists') throw err;
    });
    await db.collection('audit_log').createIndex({ project_id: 1, _id: -1 });
  },
};
