import type { Connection, Model, QueryFilter } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { rawCollection } from '../base/raw-collection';
import { LIST_LIMIT, SoftDeletingRepository } from '../base/project-scoped.repository';
import { scanPage } from '../base/scan-page';
import { containsIgnoringCase } from '../base/text-search';
import {
  endpointModel,
  type EndpointBreakerState,
  type EndpointDoc,
  type EndpointStatus,
} from './endpoint.schema';
import type { ProjectId } from '@hookrail/domain';

/** Events routed to one endpoint since the last count was written. */
export interface EndpointEventCount {
  projectId: ProjectId;
  endpointId: string;
  events: number;
}

export interface EndpointListFilter {
  ownerId?: string;
  status?: EndpointStatus;
  /** Endpoints whose name contains this text, ignoring case (Convoy's `q`). */
  nameContains?: string;
}

export class EndpointRepository extends SoftDeletingRepository<EndpointDoc> {
  constructor(conn: Connection) {
    super(endpointModel(conn) as Model<EndpointDoc>);
  }

  async page(projectId: ProjectId, filter: EndpointListFilter, req: PageRequest): Promise<Page<EndpointDoc>> {
    const q: QueryFilter<EndpointDoc> = {};
    if (filter.ownerId !== undefined) q.owner_id = filter.ownerId;
    if (filter.status !== undefined) q.status = filter.status;
    const part = filter.nameContains;
    if (part === undefined) return this.pageWhere(projectId, q, req);
    // No index can serve a substring: the name is tested on the scan of the project's (or owner's)
    // index, bounded per call (base/scan-page.ts)
    return scanPage(
      (r) => this.pageWhere(projectId, q, r),
      (rows) => rows.filter((e) => containsIgnoringCase(e.name, part)),
      req,
    );
  }

  /** Live endpoints with this owner id, oldest first (fanout, portal links). */
  async listByOwner(projectId: ProjectId, ownerId: string, limit = LIST_LIMIT): Promise<EndpointDoc[]> {
    return this.listWhere(projectId, { owner_id: ownerId }, limit);
  }

  /**
   * Adds routed events to endpoints' `events` counts, one update per item (libs/routing
   * EndpointEventCounts sums them per endpoint first). `updated_at` is left alone: the count is
   * statistics, not a change of the endpoint.
   */
  async addEventCounts(counts: readonly EndpointEventCount[]): Promise<void> {
    if (counts.length === 0) return;
    await rawCollection(this.model).bulkWrite(
      counts.map((c) => ({
        updateOne: {
          filter: { _id: c.endpointId, project_id: c.projectId },
          update: { $inc: { events: c.events } },
        },
      })),
      { ordered: false },
    );
  }

  /** Records the breaker state the dispatcher moved to, without touching `updated_at`. */
  async setBreakerState(
    projectId: ProjectId,
    endpointId: string,
    state: EndpointBreakerState,
  ): Promise<void> {
    await this.model.updateOne(this.scope(projectId, { _id: endpointId }), {
      $set: { circuit_breaker: state },
    });
  }
}
