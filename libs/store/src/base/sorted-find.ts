import type { Model, QueryFilter } from 'mongoose';
import { idBoundsOf, idCondition, timeWindows } from './time-windows';

/** A `$in` with more values than this is one query (no windows) rather than one per value. */
export const MAX_SPLIT_VALUES = 10;

export interface FindSortedOptions {
  /** false: the filter is narrow enough to read at once, without time windows. */
  windows?: boolean;
  /** Fields left out of the documents read. */
  projection?: Record<string, 0>;
}

/**
 * Up to `limit` documents of `query` in `_id` order, reading about as many documents as the page
 * needs on any server:
 * - a range of ids (or none) is read in time windows from the near end (time-windows.ts), since
 *   a server may sort every match of a query before applying the limit (`windows: false`: the
 *   filter is narrow enough to read at once);
 * - a `$in` on another field is read value by value and merged, since a server may plan `$in`
 *   beside an `_id` range as a collection scan. (docs/database.md, "List calls on a big project")
 */
export async function findSorted<T extends { _id: string }>(
  model: Model<T>,
  query: QueryFilter<T>,
  desc: boolean,
  limit: number,
  opts: FindSortedOptions = {},
): Promise<T[]> {
  const read = (q: Record<string, unknown>, n: number) =>
    model
      .find(q as QueryFilter<T>, opts.projection)
      .sort({ _id: desc ? -1 : 1 })
      .limit(n)
      .lean<T[]>()
      .exec();
  const split = splitIn(query as Record<string, unknown>);
  if (split === 'whole') return read(query as Record<string, unknown>, limit);
  if (split) {
    const parts = await Promise.all(
      split.map((q) => findSorted(model, q as QueryFilter<T>, desc, limit, opts)),
    );
    return mergeById(parts, desc, limit);
  }
  const { _id: idCond, ...rest } = query as Record<string, unknown>;
  const bounds = opts.windows === false ? null : idBoundsOf(idCond);
  if (!bounds) return read(query as Record<string, unknown>, limit);
  const rows: T[] = [];
  for (const window of timeWindows(bounds, desc, Date.now())) {
    const condition = idCondition(window);
    rows.push(...(await read({ ...rest, ...(condition && { _id: condition }) }, limit - rows.length)));
    if (rows.length >= limit) break;
  }
  return rows;
}

/**
 * A query with a `$in` on a field other than `_id`: once per value (at most MAX_SPLIT_VALUES), or
 * `whole` when it has more values or other conditions beside the `$in` (read as one query, as the
 * server plans it); null without a `$in`.
 */
export function splitIn(query: Record<string, unknown>): Record<string, unknown>[] | 'whole' | null {
  for (const [field, condition] of Object.entries(query)) {
    if (field === '_id' || field.startsWith('$') || !condition || typeof condition !== 'object') continue;
    const { $in: values, ...others } = condition as Record<string, unknown>;
    if (!Array.isArray(values)) continue;
    const distinct = [...new Set(values)];
    if (distinct.length > MAX_SPLIT_VALUES || Object.keys(others).length) return 'whole';
    return distinct.map((value) => ({ ...query, [field]: value }));
  }
  return null;
}

/**
 * The first `limit` of several sorted lists, each holding its own first `limit`, without repeats
 * (a document whose array field holds two of the values is in two lists).
 */
function mergeById<T extends { _id: string }>(parts: T[][], desc: boolean, limit: number): T[] {
  const byId = new Map<string, T>();
  for (const part of parts) for (const row of part) byId.set(row._id, row);
  const ids = [...byId.keys()].sort();
  if (desc) ids.reverse();
  return ids.slice(0, limit).map((id) => byId.get(id)!);
}

/**
 * How many documents match `query`, counting at most `cap`: counted window by window from the
 * newest (time-windows.ts), so the cost follows the cap, not the number of matches.
 */
export async function countCapped<T>(model: Model<T>, query: QueryFilter<T>, cap: number): Promise<number> {
  const { _id: idCond, ...rest } = query as Record<string, unknown>;
  const bounds = idBoundsOf(idCond);
  if (!bounds) return model.countDocuments(query, { limit: cap }).exec();
  let counted = 0;
  for (const window of timeWindows(bounds, true, Date.now())) {
    const condition = idCondition(window);
    const q = { ...rest, ...(condition && { _id: condition }) } as QueryFilter<T>;
    counted += await model.countDocuments(q, { limit: cap - counted }).exec();
    if (counted >= cap) break;
  }
  return counted;
}
