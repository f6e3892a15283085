import type { Connection, Model } from 'mongoose';
import { isDuplicateKey, rethrowTyped } from '../errors';
import { scheduleModel, type ScheduleDoc } from './schedule.schema';

/**
 * The retry-scheduler's durable due-time entries. Not project-scoped: the scheduler fires entries
 * of every project, and each entry still carries its project id. Writes are batched because the
 * scheduler takes thousands per second.
 */
export class ScheduleRepository {
  private readonly model: Model<ScheduleDoc>;

  constructor(conn: Connection) {
    this.model = scheduleModel(conn) as Model<ScheduleDoc>;
  }

  /** Idempotent: an entry that already exists (a redelivered retry message) is left as it is. */
  async insertMany(docs: ScheduleDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.model.insertMany(docs, { ordered: false, lean: true });
    } catch (err) {
      if (!isDuplicateKey(err)) rethrowTyped(err);
    }
  }

  /** Every entry of the given shards, in insertion order (later entries supersede earlier ones). */
  async findByShards(shards: string[]): Promise<ScheduleDoc[]> {
    if (shards.length === 0) return [];
    return this.model
      .find({ shard: { $in: shards } })
      .sort({ created_at: 1, _id: 1 })
      .lean<ScheduleDoc[]>()
      .exec();
  }

  /** How many entries wait for one delivery or meta event (tests; not indexed). */
  async countForTarget(targetId: string): Promise<number> {
    return this.model.countDocuments({ target_id: targetId }).exec();
  }

  async deleteByIds(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.model.deleteMany({ _id: { $in: ids } }).exec();
  }
}
