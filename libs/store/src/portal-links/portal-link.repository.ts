import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { portalLinkModel, type PortalLinkDoc } from './portal-link.schema';

export class PortalLinkRepository extends ProjectScopedRepository<PortalLinkDoc> {
  constructor(conn: Connection) {
    super(portalLinkModel(conn) as Model<PortalLinkDoc>);
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
