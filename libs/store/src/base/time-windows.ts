import { idBoundAt, MAX_ID_TIME, timeOfId } from '@hookrail/domain';

/** One end of an `_id` range. */
interface IdBound {
  id: string;
  inclusive: boolean;
}

/** An `_id` range; either end may be open. */
export interface IdBounds {
  lower?: IdBound;
  upper?: IdBound;
}

/** The first window reaches this far from where the scan starts; each next one is GROWTH times wider. */
const FIRST_WINDOW_MS = 1_000;
const GROWTH = 4;

const RANGE_OPERATORS: Record<string, (b: IdBounds, id: string) => IdBounds> = {
  $gte: (b, id) => ({ ...b, lower: tighter(b.lower, { id, inclusive: true }, 'lower') }),
  $gt: (b, id) => ({ ...b, lower: tighter(b.lower, { id, inclusive: false }, 'lower') }),
  $lte: (b, id) => ({ ...b, upper: tighter(b.upper, { id, inclusive: true }, 'upper') }),
  $lt: (b, id) => ({ ...b, upper: tighter(b.upper, { id, inclusive: false }, 'upper') }),
};

/**
 * The range an `_id` condition describes, or null when it is not a plain range of ULIDs (a set of
 * ids, an equality): such a condition is already narrow and is queried as it is.
 */
export function idBoundsOf(condition: unknown): IdBounds | null {
  if (condition === undefined) return {};
  if (!condition || typeof condition !== 'object' || Array.isArray(condition)) return null;
  let bounds: IdBounds = {};
  for (const [op, value] of Object.entries(condition as Record<string, unknown>)) {
    const apply = RANGE_OPERATORS[op];
    if (!apply || typeof value !== 'string' || timeOfId(value) === null) return null;
    bounds = apply(bounds, value);
  }
  return bounds;
}

/** The `_id` condition of a range. */
export function idCondition(bounds: IdBounds): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  if (bounds.lower) out[bounds.lower.inclusive ? '$gte' : '$gt'] = bounds.lower.id;
  if (bounds.upper) out[bounds.upper.inclusive ? '$lte' : '$lt'] = bounds.upper.id;
  return Object.keys(out).length ? out : undefined;
}

/**
 * Splits a range into consecutive time windows in scan order, each GROWTH times wider than the
 * last, together covering the whole range exactly once. A sorted, limited list reads them in
 * turn until its page is full, so it reads about as many documents as the page needs even on a
 * server that sorts every match of a query before applying the limit (the database document
 * explains which). Ids are ULIDs: their first 10 characters are their time, so a time is an id
 * bound. An ascending scan with no lower end has nowhere to start from and is one window.
 */
export function* timeWindows(bounds: IdBounds, desc: boolean, now: number): Generator<IdBounds> {
  const start = desc ? bounds.upper : bounds.lower;
  if (!desc && !start) {
    yield bounds;
    return;
  }
  let edge = start ? timeOfId(start.id)! : now;
  let width = FIRST_WINDOW_MS;
  let near: IdBound | undefined = start;
  for (;;) {
    const next = desc ? edge - width : edge + width;
    const far = desc ? bounds.lower : bounds.upper;
    const cut: IdBound | null = (desc ? next > 0 : next < MAX_ID_TIME)
      ? { id: idBoundAt(next, 'first'), inclusive: desc }
      : null;
    if (!cut || (far !== undefined && !isInside(far, cut, desc))) {
      yield desc ? { lower: far, upper: near } : { lower: near, upper: far };
      return;
    }
    yield desc ? { lower: cut, upper: near } : { lower: near, upper: { ...cut, inclusive: false } };
    near = desc ? { id: cut.id, inclusive: false } : { id: cut.id, inclusive: true };
    edge = next;
    width *= GROWTH;
  }
}

/** Whether the window cut lies strictly inside the range's far end (so more windows follow). */
function isInside(far: IdBound, cut: IdBound, desc: boolean): boolean {
  return desc ? cut.id > far.id : cut.id < far.id;
}

function tighter(current: IdBound | undefined, candidate: IdBound, end: 'lower' | 'upper'): IdBound {
  if (!current || current.id === candidate.id)
    return current && !candidate.inclusive ? candidate : (current ?? candidate);
  const candidateWins = end === 'lower' ? candidate.id > current.id : candidate.id < current.id;
  return candidateWins ? candidate : current;
}
