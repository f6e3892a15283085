import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { deliveryModel, type DeliveryDoc } from './delivery.schema';

export class DeliveryRepository extends ProjectScopedRepository<DeliveryDoc> {
  constructor(conn: Connection) {
    super(deliveryModel(conn) as Model<DeliveryDoc>);
  }
}
