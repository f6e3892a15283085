import type { Connection, Model, QueryFilter } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { cursorPage } from '../base/cursor-page';
import { idRange, type CreatedRange } from '../base/id-range';
import { insertIgnoringExisting } from '../base/insert-ignoring-existing';
import type { Page, PageRequest } from '../base/pagination';
import { auditModel, type AuditDoc } from './audit-log.schema';

export interface AuditFilter {
  /** A project's records; undefined: every project's and the instance's (the admin key's list). */
  projectId?: ProjectId;
  /** A key id, a portal link id, a person's user id or e-mail, or `admin` for the admin key. */
  actor?: string;
  operation?: string;
  /** A resource id (an event id among an aggregated record's first ones too), or a resource type. */
  resource?: string;
  createdRange?: CreatedRange;
}

/** Append and read only: a record is never changed or deleted here (retention deletes it). */
export class AuditLogRepository {
  private readonly model: Model<AuditDoc>;

  constructor(conn: Connection) {
    this.model = auditModel(conn) as Model<AuditDoc>;
  }

  /** Idempotent by id: a message consumed twice is one record. */
  async append(docs: AuditDoc[]): Promise<void> {
    await insertIgnoringExisting(this.model, docs);
  }

  page(filter: AuditFilter, req: PageRequest): Promise<Page<AuditDoc>> {
    return cursorPage(this.model, queryOf(filter), req);
  }
}

function queryOf(f: AuditFilter): QueryFilter<AuditDoc> {
  const q: Record<string, unknown> = {};
  if (f.projectId) q.project_id = f.projectId;
  if (f.actor === 'admin') q['actor.kind'] = 'admin_key';
  else if (f.actor)
    q.$or = ['key_id', 'portal_link_id', 'user_id', 'email'].map((field) => ({
      [`actor.${field}`]: f.actor,
    }));
  if (f.operation) q.operation = f.operation;
  // an event id also finds the aggregated record of the call that sent it
  if (f.resource)
    q.$and = [
      {
        $or: [
          { 'resource.id': f.resource },
          { 'resource.type': f.resource },
          { 'aggregate.event_ids': f.resource },
        ],
      },
    ];
  const range = idRange(f.createdRange);
  if (range) q._id = range;
  return q as QueryFilter<AuditDoc>;
}
