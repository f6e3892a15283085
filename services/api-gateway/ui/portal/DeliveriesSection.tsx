import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { FiltersBar } from '../components/FiltersBar';
import { when } from '../components/format';
import { Pager } from '../components/Pager';
import { portal, portalCall, type PortalDelivery, type PortalDeliveryPage } from './api';
import { usePortal } from './context';

const STATUSES = ['Success', 'Failure', 'Retry', 'Scheduled', 'Processing', 'Discarded'];
export type Cursor = Record<string, string>;

/**
 * Retry a failed or discarded one, or one still in Retry now rather than at its next backoff. A
 * delivered one is never sent again from here: the receiver has it (the provider can, from its
 * console).
 */
function DeliveryActions({ d }: { d: PortalDelivery }) {
  const { act } = usePortal();
  const params = { deliveryID: d.uid };
  const retryable = d.status === 'Failure' || d.status === 'Discarded' || d.status === 'Retry';
  const stop = (fn: () => unknown) => (ev: Event) => {
    ev.stopPropagation(); // the row's click opens the delivery
    void fn();
  };
  return (
    <span class="row-actions">
      {retryable && (
        <button
          type="button"
          onClick={stop(() =>
            act(() => portalCall(portal.portalResendDelivery, { params }), 'Delivery retried'),
          )}
        >
          {d.status === 'Retry' ? 'Retry now' : 'Retry'}
        </button>
      )}
    </span>
  );
}

/** What an empty list means, and what to do next. */
function emptyText(filter: Record<string, string>, endpointCount: number): string {
  if (Object.values(filter).some(Boolean)) return 'No deliveries match these filters.';
  if (endpointCount === 0)
    return 'No deliveries yet: add an endpoint first; the webhooks sent to it will be listed here.';
  return 'No deliveries yet. Each webhook sent to your endpoints will be listed here with every attempt; send a test event from an endpoint to see one.';
}

interface Props {
  page: PortalDeliveryPage | null;
  filter: Record<string, string>;
  selected: string | null;
  onFilter: (filter: Record<string, string>) => void;
  onPage: (cursor: Cursor) => void;
  onSelect: (id: string) => void;
  onRefresh: () => void;
}

/** The link's deliveries: filters, the list (a row opens its detail), paging. */
export function DeliveriesSection({ page, filter, selected, onFilter, onPage, onSelect, onRefresh }: Props) {
  const { endpoints } = usePortal();
  const endpointName = (id: string) => endpoints.find((e) => e.uid === id)?.name ?? id;
  const p = page?.pagination;
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">
        <span>Deliveries</span>
        <button id="refresh" type="button" onClick={onRefresh}>
          Refresh
        </button>
      </h2>
      <FiltersBar
        id="delivery-filters"
        label="Delivery filters"
        submitLabel="Filter"
        values={filter}
        onApply={onFilter}
        filters={[
          { key: 'status', label: 'Status', options: STATUSES, anyLabel: 'any status' },
          {
            key: 'endpointId',
            label: 'Endpoint',
            options: endpoints.map((e) => ({ value: e.uid, label: e.name })),
            anyLabel: 'any endpoint',
          },
          { key: 'startDate', label: 'From', type: 'time' },
          { key: 'endDate', label: 'To', type: 'time' },
          { key: 'query', label: 'Payload contains', type: 'search', placeholder: 'words in the payload' },
        ]}
      />
      <DataTable<PortalDelivery>
        id="deliveries"
        rows={page?.content ?? []}
        empty={page ? emptyText(filter, endpoints.length) : 'Loading…'}
        rowKey={(d) => d.uid}
        rowProps={(d) => ({
          'data-delivery': d.uid,
          class: `clickable${selected === d.uid ? ' selected' : ''}`,
          onClick: () => onSelect(d.uid),
        })}
        columns={[
          // a button, so a keyboard opens the delivery too (its click reaches the row)
          {
            label: 'Created',
            cell: (d) => (
              <button type="button" class="link">
                {when(d.created_at)}
              </button>
            ),
          },
          { label: 'Event type', cell: (d) => d.event_type },
          { label: 'Endpoint', cell: (d) => endpointName(d.endpoint_id) },
          { label: 'Status', cell: (d) => <Badge status={d.status} /> },
          { label: 'Attempts', cell: (d) => String(d.attempts_made) },
          {
            label: 'Last response',
            // a connection failure has no status: say why (refused, timeout, TLS...)
            cell: (d) =>
              d.last_http_status === null ? (
                <span class="reason">{d.last_error ?? ''}</span>
              ) : (
                String(d.last_http_status)
              ),
          },
          { label: 'Actions', hiddenLabel: true, cell: (d) => <DeliveryActions d={d} /> },
        ]}
      />
      <Pager
        newerLabel="Newer"
        olderLabel="Older"
        newer={
          p?.has_prev_page
            ? { onClick: () => onPage({ prev_page_cursor: p.prev_page_cursor!, direction: 'prev' }) }
            : undefined
        }
        older={
          p?.has_next_page ? { onClick: () => onPage({ next_page_cursor: p.next_page_cursor! }) } : undefined
        }
      />
    </section>
  );
}
