import { ValidationError } from '@hookrail/domain';

export interface PageRequest {
  perPage?: number;
  cursor?: string;
  direction?: 'next' | 'prev';
  sort?: 'ASC' | 'DESC';
}

export interface Pagination {
  per_page: number;
  has_next_page: boolean;
  has_prev_page: boolean;
  next_page_cursor: string;
  prev_page_cursor: string;
}

export interface Page<T> {
  content: T[];
  pagination: Pagination;
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** A page with nothing in it (a filter that matches nothing by construction). */
export function emptyPage<T>(req: PageRequest): Page<T> {
  return {
    content: [],
    pagination: {
      per_page: req.perPage ?? DEFAULT_PER_PAGE,
      has_next_page: false,
      has_prev_page: false,
      next_page_cursor: '',
      prev_page_cursor: '',
    },
  };
}

/** Parses `?perPage=&next_page_cursor=&prev_page_cursor=&direction=&sort=`. */
export function parsePageQuery(query: Record<string, unknown>): PageRequest {
  const perPageRaw = query.perPage ?? query.per_page;
  let perPage = DEFAULT_PER_PAGE;
  if (perPageRaw !== undefined) {
    perPage = Number(perPageRaw);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE)
      throw new ValidationError('invalid pagination', [
        { field: 'perPage', message: `must be an integer from 1 to ${MAX_PER_PAGE}` },
      ]);
  }
  const direction = (query.direction as string | undefined) ?? 'next';
  if (direction !== 'next' && direction !== 'prev')
    throw new ValidationError('invalid pagination', [
      { field: 'direction', message: 'must be next or prev' },
    ]);
  const sort = ((query.sort as string | undefined) ?? 'DESC').toUpperCase();
  if (sort !== 'ASC' && sort !== 'DESC')
    throw new ValidationError('invalid pagination', [{ field: 'sort', message: 'must be ASC or DESC' }]);
  const cursor = (direction === 'next' ? query.next_page_cursor : query.prev_page_cursor) as
    string | undefined;
  return { perPage, cursor: cursor || undefined, direction, sort };
}
