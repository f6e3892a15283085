import { idBoundAt, MAX_ID_TIME, ValidationError } from '@hookrail/domain';

/** A creation-time window, both ends inclusive; either may be open. */
export interface CreatedRange {
  from?: Date;
  to?: Date;
}

/** The range of two optional date-time strings (query or body parameters). */
export function createdRangeOf(start?: string, end?: string): CreatedRange | undefined {
  if (!start && !end) return undefined;
  return { from: start ? new Date(start) : undefined, to: end ? new Date(end) : undefined };
}

/**
 * The `_id` bounds of a time window. Ids are ULIDs whose first 10 characters encode their time
 * and sort as strings, so a time range is an `_id` range: every list index ends in `_id`, and the
 * range bounds the same index scan the sort and the cursor use (a separate `created_at` range
 * could not). The time is the resource's id time: for events and deliveries, when the event was
 * accepted.
 */
export function idRange(range: CreatedRange | undefined): { $gte?: string; $lte?: string } | undefined {
  if (!range || (!range.from && !range.to)) return undefined;
  const out: { $gte?: string; $lte?: string } = {};
  if (range.from) out.$gte = idBoundAt(clampTime(range.from), 'first');
  if (range.to) out.$lte = idBoundAt(clampTime(range.to), 'last');
  return out;
}

function clampTime(d: Date): number {
  const t = d.getTime();
  if (Number.isNaN(t)) throw new ValidationError('invalid date', [{ field: 'date', message: 'not a date' }]);
  return Math.min(Math.max(t, 0), MAX_ID_TIME);
}
