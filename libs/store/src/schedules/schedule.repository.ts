import type { Connection, Model } from 'mongoose';
import { scopedIdsFilter, type ScopedId } from '../base/scoped-ids';
import { isDuplicateKey, rethrowTyped } from '../errors';
import { scheduleModel, type ScheduleDoc } from './schedule.schema';

/**
 * The retry-scheduler's durable due-time entries. Loading is by shard, not by project: a replica
 * fires the entries of every project in the partitions it owns, and each entry carries its project
 * id. Deletes match each entry within its project. Writes are batched because the scheduler takes
 * thousands per second.
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

  /** One delete for all the given entries, each matched by its id within its own project. */
  async deleteByIds(entries: readonly ScopedId[]): Promise<void> {
    if (entries.length === 0) return;
    await this.model.deleteMany(scopedIdsFilter(entries)).exec();
  }
}
