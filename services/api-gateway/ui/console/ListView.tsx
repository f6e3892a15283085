import type { ComponentChildren } from 'preact';
import { DataTable, type Column } from '../components/DataTable';
import { FiltersBar, type Filter } from '../components/FiltersBar';
import { withQuery } from '../components/format';
import { Pager } from '../components/Pager';
import type { ItemOf, Operation, Page, PathParams } from '@hookrail/api-contract';
import { useLoad } from '../components/useLoad';
import { useConsole } from './context';
import { Link } from './Link';
import { navigate } from './location';
import { Loaded } from '../components/Loaded';

const PER_PAGE = 20;
const CURSOR_KEYS = ['next_page_cursor', 'prev_page_cursor', 'direction'];

/** A list operation of the management API: its `data` is a page. */
type ListOperation = Operation & { paginated: true };
type Item<O extends ListOperation> = ItemOf<O> & { uid: string };

interface Props<O extends ListOperation> {
  op: O;
  params: PathParams<O>;
  id: string;
  empty: string;
  columns: Column<Item<O>>[];
  filters?: Filter[];
  /** Above the table: actions over the listed items or the filter. */
  toolbar?: (page: Page<Item<O>>, filter: Record<string, string>) => ComponentChildren;
  /** Below the pager: a tool working on the listed items. */
  footer?: (page: Page<Item<O>>) => ComponentChildren;
}

/**
 * A list of the management API with its filters and cursor in the URL (a filtered page is a link
 * to share): the filter form, the table (a row per item, `data-id` its id) and the pager.
 */
export function ListView<O extends ListOperation>({
  op,
  params,
  id,
  empty,
  columns,
  filters = [],
  toolbar,
  footer,
}: Props<O>) {
  const ctx = useConsole();
  const { query, path: here } = ctx.where;
  const filter: Record<string, string> = {};
  for (const f of filters) if (query.get(f.key)) filter[f.key] = query.get(f.key)!;
  const cursor: Record<string, string> = {};
  for (const k of CURSOR_KEYS) if (query.get(k)) cursor[k] = query.get(k)!;
  const listQuery = { perPage: PER_PAGE, ...filter, ...cursor };
  const load = useLoad(
    // O is generic here: `params` has its PathParams by the prop's type
    () => ctx.call<ListOperation>(op, { params, query: listQuery } as never) as Promise<Page<Item<O>>>,
    [op, JSON.stringify(params), JSON.stringify(listQuery), ctx.tick],
  );
  const filtered = Object.keys(filter).length > 0;

  return (
    <>
      {filters.length > 0 && (
        <FiltersBar filters={filters} values={filter} onApply={(values) => navigate(withQuery(here, values))}>
          <Link href={here}>Reset</Link>
        </FiltersBar>
      )}
      <Loaded load={load}>
        {(page) => (
          <>
            {toolbar?.(page, filter)}
            {page.content.length === 0 ? (
              <div class="empty" id="empty">
                <p>{filtered ? 'Nothing matches these filters.' : empty}</p>
                {filtered && <Link href={here}>Clear filters</Link>}
              </div>
            ) : (
              <DataTable
                id={id}
                columns={columns}
                rows={page.content}
                rowKey={(row) => row.uid}
                rowProps={(row) => ({ 'data-id': row.uid })}
              />
            )}
            <Pager
              onNavigate={(href) => navigate(href)}
              newer={
                page.pagination.has_prev_page
                  ? {
                      href: withQuery(here, {
                        ...filter,
                        prev_page_cursor: page.pagination.prev_page_cursor,
                        direction: 'prev',
                      }),
                    }
                  : undefined
              }
              older={
                page.pagination.has_next_page
                  ? {
                      href: withQuery(here, {
                        ...filter,
                        next_page_cursor: page.pagination.next_page_cursor,
                      }),
                    }
                  : undefined
              }
            />
            {footer?.(page)}
          </>
        )}
      </Loaded>
    </>
  );
}
