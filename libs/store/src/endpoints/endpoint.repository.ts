import type { Connection, Model, QueryFilter } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { LIST_LIMIT, SoftDeletingRepository } from '../base/project-scoped.repository';
import { endpointModel, type EndpointDoc, type EndpointStatus } from './endpoint.schema';

export interface EndpointListFilter {
  ownerId?: string;
  status?: EndpointStatus;
}

export class EndpointRepository extends SoftDeletingRepository<EndpointDoc> {
  constructor(conn: Connection) {
    super(endpointModel(conn) as Model<EndpointDoc>);
  }

  async page(projectId: string, filter: EndpointListFilter, req: PageRequest): Promise<Page<EndpointDoc>> {
    const q: QueryFilter<EndpointDoc> = {};
    if (filter.ownerId !== undefined) q.owner_id = filter.ownerId;
    if (filter.status !== undefined) q.status = filter.status;
    return this.pageWhere(projectId, q, req);
  }

  /** Live endpoints with this owner id, oldest first (fanout, portal links). */
  async listByOwner(projectId: string, ownerId: string, limit = LIST_LIMIT): Promise<EndpointDoc[]> {
    return this.listWhere(projectId, { owner_id: ownerId }, limit);
  }
}
