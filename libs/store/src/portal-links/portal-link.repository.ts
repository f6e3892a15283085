import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { portalLinkModel, type PortalLinkDoc } from './portal-link.schema';

export class PortalLinkRepository extends ProjectScopedRepository<PortalLinkDoc> {
  constructor(conn: Connection) {
    super(portalLinkModel(conn) as Model<PortalLinkDoc>);
  }
}
