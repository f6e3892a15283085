import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { endpointModel, type EndpointDoc } from './endpoint.schema';

export class EndpointRepository extends ProjectScopedRepository<EndpointDoc> {
  constructor(conn: Connection) {
    super(endpointModel(conn) as Model<EndpointDoc>);
  }
}
