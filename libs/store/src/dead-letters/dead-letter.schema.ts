import type { Connection } from 'mongoose';
import { Schema } from 'mongoose';
import type { DeadLetter } from '@hookrail/domain';

/**
 * A message a Kafka consumer gave up on (libs/bus), recorded for the admin API. Platform-level:
 * a dead letter belongs to a topic, not to a project (its message may not even parse), so only the
 * admin key reads these.
 */
/** What the consumer knows when it dead-letters a message. */
export type DeadLetterRecord = DeadLetter;

export interface DeadLetterDoc extends Omit<DeadLetterRecord, 'failed_at'> {
  /** `<topic>:<partition>:<offset>`: a message dead-lettered again (redelivered) is one record. */
  _id: string;
  failed_at: Date;
  status: 'pending' | 'redriven';
  redriven_at: Date | null;
  redrive_count: number;
}

const deadLetterSchema = new Schema<DeadLetterDoc>(
  {
    _id: { type: String, required: true },
    topic: { type: String, required: true },
    partition: { type: Number, required: true },
    offset: { type: String, required: true },
    group: { type: String, default: '' },
    key: { type: String, default: null },
    value: { type: String, default: null },
    headers: { type: Schema.Types.Mixed, default: {} },
    error: { type: String, required: true },
    error_name: { type: String, default: '' },
    retriable: { type: Boolean, default: false },
    attempts: { type: Number, required: true },
    failed_at: { type: Date, required: true },
    status: { type: String, required: true },
    redriven_at: { type: Date, default: null },
    redrive_count: { type: Number, default: 0 },
  },
  { collection: 'dead_letters', versionKey: false, minimize: false, _id: false },
);
deadLetterSchema.index({ failed_at: -1 });

export const deadLetterModel = (conn: Connection) =>
  conn.models.DeadLetter ?? conn.model<DeadLetterDoc>('DeadLetter', deadLetterSchema);
