import type { Connection, Model, QueryFilter } from 'mongoose';
import type { Page, PageRequest } from '../base/pagination';
import { SoftDeletingRepository } from '../base/project-scoped.repository';
import { portalLinkModel, type PortalLinkDoc } from './portal-link.schema';
import type { ProjectId } from '@hookrail/domain';

export interface PortalLinkListFilter {
  ownerId?: string;
}

export class PortalLinkRepository extends SoftDeletingRepository<PortalLinkDoc> {
  constructor(conn: Connection) {
    super(portalLinkModel(conn) as Model<PortalLinkDoc>);
  }

  async page(
    projectId: ProjectId,
    filter: PortalLinkListFilter,
    req: PageRequest,
  ): Promise<Page<PortalLinkDoc>> {
    const q: QueryFilter<PortalLinkDoc> = {};
    if (filter.ownerId !== undefined) q.owner_id = filter.ownerId;
    return this.pageWhere(projectId, q, req);
  }

  /** Adds an endpoint to the link's listed endpoints (once); false when the link is not live here. */
  async addEndpoint(projectId: ProjectId, linkId: string, endpointId: string): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scope(projectId, { _id: linkId }), {
        $addToSet: { endpoints: endpointId },
        $set: { updated_at: new Date() },
      })
      .exec();
    return res.matchedCount > 0;
  }

  /**
   * The portal API's authentication: the credential itself names the project, so this lookup is
   * not project-scoped. Matches a live link by its token hash or its current auth key hash; the
   * caller compares in constant time and checks the auth key's expiry.
   */
  async findByCredentialHash(hash: string): Promise<PortalLinkDoc | null> {
    return this.model
      .findOne({ $or: [{ token_hash: hash }, { auth_key_hash: hash }], deleted_at: null })
      .lean<PortalLinkDoc>()
      .exec();
  }
}
