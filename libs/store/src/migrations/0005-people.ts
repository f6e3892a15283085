import type { mongo } from 'mongoose';
import type { Migration } from './migration';

const create = (db: mongo.Db, name: string) =>
  db.createCollection(name).catch((err: { codeName?: string }) => {
    if (err.codeName !== 'NamespaceExists') throw err;
  });

/**
 * People and the roles an owner assigns them (docs/access.md): `people` (read by _id, the
 * provider's sub), `project_members` (one role per person and project, and a person's projects by
 * user id), and `audit_outbox`, the audit records kept while Kafka could not take them (by _id).
 */
export const people: Migration = {
  id: 5,
  name: 'people',
  description: 'people, project_members (by project and person, by person) and audit_outbox',
  async up(db: mongo.Db) {
    await create(db, 'people');
    await create(db, 'audit_outbox');
    await create(db, 'project_members');
    const members = db.collection('project_members');
    await members.createIndex({ project_id: 1, user_id: 1 }, { unique: true });
    await members.createIndex({ user_id: 1 });
  },
};
