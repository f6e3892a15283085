import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { subscriptionModel, type SubscriptionDoc } from './subscription.schema';

export class SubscriptionRepository extends ProjectScopedRepository<SubscriptionDoc> {
  constructor(conn: Connection) {
    super(subscriptionModel(conn) as Model<SubscriptionDoc>);
  }
}
