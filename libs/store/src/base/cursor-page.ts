import type { Model, QueryFilter } from 'mongoose';
import { DEFAULT_PER_PAGE, type Page, type PageRequest } from './pagination';
import { findSorted, type FindSortedOptions } from './sorted-find';

/**
 * Cursor pagination on `_id` (ULIDs sort by time); `filter` already carries the scope and may
 * hold an `_id` condition of its own (a time range, a set of ids), which the cursor narrows.
 */
export async function cursorPage<T extends { _id: string }>(
  model: Model<T>,
  filter: QueryFilter<T>,
  req: PageRequest,
  opts: FindSortedOptions = {},
): Promise<Page<T>> {
  const perPage = req.perPage ?? DEFAULT_PER_PAGE;
  const desc = (req.sort ?? 'DESC') === 'DESC';
  const backwards = req.direction === 'prev';
  // Walking backwards flips the scan order; results are flipped back below.
  const scanDesc = backwards ? !desc : desc;
  const query = req.cursor
    ? { ...filter, _id: withCursor((filter as { _id?: unknown })._id, scanDesc ? '$lt' : '$gt', req.cursor) }
    : filter;
  const rows = await findSorted(model, query, scanDesc, perPage + 1, opts);
  const more = rows.length > perPage;
  const content = rows.slice(0, perPage);
  if (backwards) content.reverse();
  const first = content[0]?._id ?? '';
  const last = content[content.length - 1]?._id ?? '';
  return {
    content,
    pagination: {
      per_page: perPage,
      has_next_page: backwards ? Boolean(req.cursor) : more,
      has_prev_page: backwards ? more : Boolean(req.cursor),
      next_page_cursor: last,
      prev_page_cursor: first,
    },
  };
}

/** Adds the cursor bound to an existing `_id` condition (a value or an operator object). */
function withCursor(existing: unknown, op: '$lt' | '$gt', cursor: string): Record<string, unknown> {
  if (existing === undefined) return { [op]: cursor };
  if (existing && typeof existing === 'object' && !Array.isArray(existing))
    return { ...(existing as Record<string, unknown>), [op]: cursor };
  return { $eq: existing, [op]: cursor };
}
