import type { Connection, Model, QueryFilter } from 'mongoose';
import { emptyPage, type Page, type PageRequest } from '../base/pagination';
import { LIST_LIMIT, SoftDeletingRepository } from '../base/project-scoped.repository';
import { scanPage } from '../base/scan-page';
import { rethrowTyped } from '../errors';
import { subscriptionModel, type SubscriptionDoc } from './subscription.schema';
import type { ProjectId } from '@hookrail/domain';

export interface SubscriptionListFilter {
  /** Subscriptions of any of these endpoints (none: no subscription). */
  endpointIds?: readonly string[];
  sourceId?: string;
  name?: string;
}

export class SubscriptionRepository extends SoftDeletingRepository<SubscriptionDoc> {
  constructor(conn: Connection) {
    super(subscriptionModel(conn) as Model<SubscriptionDoc>);
  }

  async page(
    projectId: ProjectId,
    filter: SubscriptionListFilter,
    req: PageRequest,
  ): Promise<Page<SubscriptionDoc>> {
    const q: QueryFilter<SubscriptionDoc> = {};
    const endpoints = filter.endpointIds;
    if (filter.sourceId !== undefined) q.source_id = filter.sourceId;
    if (filter.name !== undefined) q.name = filter.name;
    if (endpoints?.length === 0) return emptyPage(req);
    if (!endpoints || endpoints.length === 1) {
      if (endpoints) q.endpoint_id = endpoints[0];
      return this.pageWhere(projectId, q, req);
    }
    // Several endpoints: an `$in` before the index's deleted_at key is not planned on the index by
    // every server we run, so the project's (or source's) index is scanned, bounded per call.
    const wanted = new Set(endpoints);
    return scanPage(
      (r) => this.pageWhere(projectId, q, r),
      (rows) => rows.filter((s) => wanted.has(s.endpoint_id)),
      req,
    );
  }

  /** Every live subscription of the project, oldest first (routing filters them in memory). */
  async listAll(projectId: ProjectId, limit = LIST_LIMIT): Promise<SubscriptionDoc[]> {
    return this.listWhere(projectId, {}, limit);
  }

  /** The live subscriptions of an endpoint, oldest first. */
  async listByEndpoint(
    projectId: ProjectId,
    endpointId: string,
    limit = LIST_LIMIT,
  ): Promise<SubscriptionDoc[]> {
    return this.listWhere(projectId, { endpoint_id: endpointId }, limit);
  }

  /**
   * Makes sure the subscription with this id is live: inserted when absent, revived when it was
   * deleted, left as it is otherwise. Racing callers with the same id create one document.
   * Returns the live document.
   */
  async ensureLive(
    projectId: ProjectId,
    doc: Omit<SubscriptionDoc, 'project_id' | 'created_at' | 'updated_at' | 'deleted_at'>,
  ): Promise<SubscriptionDoc> {
    const now = new Date();
    // The stamps are this method's own (a full document may be passed).
    const {
      _id,
      project_id: _p,
      created_at: _c,
      updated_at: _u,
      deleted_at: _d,
      ...fields
    } = doc as SubscriptionDoc;
    const stored = await this.model
      .findOneAndUpdate(
        { _id, project_id: projectId },
        { $setOnInsert: { ...fields, created_at: now, updated_at: now }, $set: { deleted_at: null } },
        { upsert: true, returnDocument: 'after' },
      )
      .lean<SubscriptionDoc>()
      .exec()
      .catch(rethrowTyped);
    if (!stored) throw new Error(`subscription ${_id} was not stored`);
    return stored;
  }
}
