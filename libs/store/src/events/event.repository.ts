import type { Connection, Model } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { eventModel, type EventDoc } from './event.schema';

export class EventRepository extends ProjectScopedRepository<EventDoc> {
  constructor(conn: Connection) {
    super(eventModel(conn) as Model<EventDoc>);
  }
}
