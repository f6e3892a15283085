import { Type, type TSchema } from '@sinclair/typebox';
import { bool, int, str, enumOf, resource } from './common.schema';

export const pageQuery = {
  perPage: str({
    pattern: '^[0-9]+$',
    description: 'items per page, 1 to 100 (default 20; 0 is the default)',
  }),
  next_page_cursor: str({ description: 'cursor from pagination.next_page_cursor' }),
  prev_page_cursor: str({ description: 'cursor from pagination.prev_page_cursor' }),
  direction: enumOf(['next', 'prev']),
  sort: enumOf(['ASC', 'DESC', 'asc', 'desc']),
};

const dateTime = (description: string) =>
  str({
    format: 'date-time',
    description: `${description}; a time without a zone (\`2006-01-02T15:04:05\`) is UTC (alias: snake_case)`,
  });

/** Time window of the event and delivery lists: both ends inclusive, by the item's id time. */
export const createdRangeQuery = {
  startDate: dateTime('only items created at or after this time'),
  endDate: dateTime('only items created at or before this time'),
};

/** A filter by id: one value, `ownerId` also read as `owner_id`. */
export const idQuery = (what: string) => str({ description: `${what} (alias: snake_case)` });

/** How many values a repeated filter takes at most (`endpointId=a&endpointId=b…`). */
export const MAX_FILTER_VALUES = 100;

/** A filter by any of several ids: repeat the parameter (`endpointId=a&endpointId=b`). */
export const idListQuery = (what: string) =>
  Type.Array(str(), {
    maxItems: MAX_FILTER_VALUES,
    description: `${what}; repeat the parameter for several, up to ${MAX_FILTER_VALUES} (alias: snake_case)`,
  });

/** A filter by any of several values of an enum (`status=Failure&status=Retry`). */
export const enumListQuery = (values: readonly string[], what: string) =>
  Type.Array(enumOf(values), {
    maxItems: MAX_FILTER_VALUES,
    description: `${what}; repeat the parameter for several`,
  });

/** Free text (Convoy's `q`, `query`): compared as text, never as a pattern. */
export const searchQuery = (what: string) => str({ maxLength: 200, description: what });

export const paginationResponse = resource({
  per_page: int(),
  has_next_page: bool,
  has_prev_page: bool,
  next_page_cursor: str(),
  prev_page_cursor: str(),
});

export function pageOf<T extends TSchema>(item: T) {
  return resource({ content: Type.Array(item), pagination: paginationResponse });
}
