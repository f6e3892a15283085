import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Page, type PageRequest } from './pagination';

/** Documents read at most by one scanned page call (the next call goes on from there). */
const SCAN_LIMIT = 2000;

/**
 * A page of a filter no index can answer (a derived status, a substring of a name or payload):
 * candidates, read by `read` on an index in index order a full page at a time, are kept when
 * `keep` keeps them, until a page is filled, the candidates end, or SCAN_LIMIT were read. A page
 * cut short by the limit has a cursor that goes on from where the scan stopped, so a rare match
 * costs more calls, never an unbounded read.
 */
export async function scanPage<T extends { _id: string }>(
  read: (req: PageRequest) => Promise<Page<T>>,
  keep: (rows: T[]) => Promise<T[]> | T[],
  req: PageRequest,
  limit = SCAN_LIMIT,
): Promise<Page<T>> {
  const backwards = req.direction === 'prev';
  const perPage = req.perPage ?? DEFAULT_PER_PAGE;
  const kept: T[] = [];
  let scanned = 0;
  let cursor = req.cursor;
  let last: Page<T>;
  do {
    last = await read({ ...req, cursor, perPage: MAX_PER_PAGE });
    scanned += last.content.length;
    const chunk = await keep(last.content);
    kept.push(...(backwards ? chunk.reverse() : chunk));
    cursor = backwards ? last.pagination.prev_page_cursor : last.pagination.next_page_cursor;
    const more = backwards ? last.pagination.has_prev_page : last.pagination.has_next_page;
    if (!more) break;
  } while (kept.length < perPage && scanned < limit);
  return scannedPage(kept, perPage, req, last);
}

/**
 * The page of a scan: `kept` in scan order. When the scan found more than a page, the page ends
 * at its last document; otherwise it ends where the scan stopped, so the next call goes on from
 * there.
 */
function scannedPage<T extends { _id: string }>(
  kept: T[],
  perPage: number,
  req: PageRequest,
  last: Page<T>,
): Page<T> {
  const backwards = req.direction === 'prev';
  const content = kept.slice(0, perPage);
  const cutShort = kept.length > perPage;
  const scanMore = backwards ? last.pagination.has_prev_page : last.pagination.has_next_page;
  const boundary = backwards ? last.pagination.prev_page_cursor : last.pagination.next_page_cursor;
  const farEnd = cutShort ? content[content.length - 1]._id : boundary;
  if (backwards) content.reverse();
  const near = (backwards ? content[content.length - 1]?._id : content[0]?._id) ?? req.cursor ?? '';
  return {
    content,
    pagination: {
      per_page: perPage,
      has_next_page: backwards ? Boolean(req.cursor) : cutShort || scanMore,
      has_prev_page: backwards ? cutShort || scanMore : Boolean(req.cursor),
      next_page_cursor: backwards ? near : farEnd,
      prev_page_cursor: backwards ? farEnd : near,
    },
  };
}
