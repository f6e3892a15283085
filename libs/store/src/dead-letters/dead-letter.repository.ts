import type { Connection, Model } from 'mongoose';
import { deadLetterModel, type DeadLetterDoc, type DeadLetterRecord } from './dead-letter.schema';

export type { DeadLetterRecord };

export const deadLetterId = (r: Pick<DeadLetterRecord, 'topic' | 'partition' | 'offset'>) =>
  `${r.topic}:${r.partition}:${r.offset}`;

export class DeadLetterRepository {
  private readonly model: Model<DeadLetterDoc>;

  constructor(conn: Connection) {
    this.model = deadLetterModel(conn) as Model<DeadLetterDoc>;
  }

  /** Idempotent by position: the same message failing again (after a re-drive too) updates its record. */
  async record(r: DeadLetterRecord): Promise<void> {
    const { failed_at, ...rest } = r;
    await this.model
      .updateOne(
        { _id: deadLetterId(r) },
        {
          $set: { ...rest, failed_at: new Date(failed_at), status: 'pending' },
          $setOnInsert: { redriven_at: null, redrive_count: 0 },
        },
        { upsert: true },
      )
      .exec();
  }

  /** Newest first. */
  async list(filter: {
    topic?: string;
    status?: DeadLetterDoc['status'];
    limit: number;
  }): Promise<DeadLetterDoc[]> {
    const q: Record<string, unknown> = {};
    if (filter.topic) q.topic = filter.topic;
    if (filter.status) q.status = filter.status;
    return this.model
      .find(q)
      .sort({ failed_at: -1, _id: -1 })
      .limit(filter.limit)
      .lean<DeadLetterDoc[]>()
      .exec();
  }

  async find(id: string): Promise<DeadLetterDoc | null> {
    return this.model.findOne({ _id: id }).lean<DeadLetterDoc>().exec();
  }

  async markRedriven(id: string, at: Date): Promise<DeadLetterDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: id },
        { $set: { status: 'redriven', redriven_at: at }, $inc: { redrive_count: 1 } },
        { new: true },
      )
      .lean<DeadLetterDoc>()
      .exec();
  }
}
