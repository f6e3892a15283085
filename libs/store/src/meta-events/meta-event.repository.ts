import type { Connection, Model, QueryFilter } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { LIST_LIMIT, ProjectScopedRepository } from '../base/project-scoped.repository';
import { metaEventModel, type MetaEventDoc, type MetaEventStatus } from './meta-event.schema';
import type { ProjectId } from '@hookrail/domain';

export interface MetaEventListFilter {
  eventType?: string;
  status?: MetaEventStatus;
}

export class MetaEventRepository extends ProjectScopedRepository<MetaEventDoc> {
  constructor(conn: Connection) {
    super(metaEventModel(conn) as Model<MetaEventDoc>);
  }

  async page(
    projectId: ProjectId,
    filter: MetaEventListFilter,
    req: PageRequest,
  ): Promise<Page<MetaEventDoc>> {
    return this.pageWhere(projectId, where(filter), req);
  }

  /** Matching meta events oldest first, at most `limit`. */
  async list(projectId: ProjectId, filter: MetaEventListFilter, limit = LIST_LIMIT): Promise<MetaEventDoc[]> {
    return this.listWhere(projectId, where(filter), limit);
  }
}

function where(filter: MetaEventListFilter): QueryFilter<MetaEventDoc> {
  const q: QueryFilter<MetaEventDoc> = {};
  if (filter.eventType !== undefined) q.event_type = filter.eventType;
  if (filter.status !== undefined) q.status = filter.status;
  return q;
}
