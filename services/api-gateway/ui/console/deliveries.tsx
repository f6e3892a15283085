import { Allowed } from '../components/grants';
import { Badge } from '../components/Badge';
import { confirmAction } from '../components/ConfirmDialog';
import { DataTable, type Column } from '../components/DataTable';
import { when } from '../components/format';
import { DELIVERY_STATUSES, type ResponseOf } from '@hookrail/api-contract';
import { act } from './actions';
import { api } from './api';
import { pageProject, useConsole } from './context';
import { Link } from './Link';

export type Delivery = ResponseOf<typeof api.getEventDelivery>;
export { DELIVERY_STATUSES };

/**
 * What an operator can do with one delivery, by its status (the rules of libs/operations):
 * Retry a failed or discarded one; Retry now one still waiting for its next retry; Force resend
 * also a delivered one.
 */
export function DeliveryActions({ pid, d }: { pid: string; d: Delivery }) {
  const ctx = useConsole();
  const params = { projectID: pid, deliveryID: d.uid };
  const failed = d.status === 'Failure' || d.status === 'Discarded';
  return (
    <span class="row-actions">
      {failed && (
        <Allowed op={api.resendEventDelivery}>
          <button
            type="button"
            onClick={() => act(ctx, () => ctx.call(api.resendEventDelivery, { params }), 'Delivery retried')}
          >
            Retry
          </button>
        </Allowed>
      )}
      {d.status === 'Retry' && (
        <Allowed op={api.retryEventDeliveryNow}>
          <button
            type="button"
            onClick={() =>
              act(ctx, () => ctx.call(api.retryEventDeliveryNow, { params }), 'Delivery sent again now')
            }
          >
            Retry now
          </button>
        </Allowed>
      )}
      {(failed || d.status === 'Success') && (
        <Allowed op={api.forceResendEventDelivery}>
          <button
            type="button"
            onClick={async () => {
              if (await confirmAction('Send this delivery again, even if it succeeded?', 'Force resend'))
                await act(ctx, () => ctx.call(api.forceResendEventDelivery, { params }), 'Delivery resent');
            }}
          >
            Force resend
          </button>
        </Allowed>
      )}
    </span>
  );
}

/** The columns of a list of deliveries (links to the delivery, its endpoint; the actions). */
export function deliveryColumns(pid: string): Column<Delivery>[] {
  const base = pageProject(pid);
  return [
    { label: 'Created', cell: (d) => <Link href={`${base}/deliveries/${d.uid}`}>{when(d.created_at)}</Link> },
    { label: 'Event type', cell: (d) => d.event_type },
    {
      label: 'Endpoint',
      // its name; the id only once the endpoint is deleted
      cell: (d) =>
        d.endpoint_metadata ? (
          <Link href={`${base}/endpoints/${d.endpoint_id}`}>{d.endpoint_metadata.name}</Link>
        ) : (
          <span class="mono">{d.endpoint_id}</span>
        ),
    },
    {
      label: 'Status',
      cell: (d) => (
        <>
          <Badge status={d.status} />
          {d.status_reason && <div class="muted">{d.status_reason}</div>}
        </>
      ),
    },
    { label: 'Attempts', cell: (d) => String(d.attempts_made) },
    {
      label: 'Last HTTP',
      cell: (d) => (d.last_http_status === null ? '—' : String(d.last_http_status)),
    },
    { label: 'Actions', cell: (d) => <DeliveryActions pid={pid} d={d} /> },
  ];
}

/** A short list of deliveries (an overview's, an event's), without paging. */
export function DeliveryTable({ pid, rows }: { pid: string; rows: Delivery[] }) {
  return (
    <DataTable
      class="deliveries"
      columns={deliveryColumns(pid)}
      rows={rows}
      rowKey={(d) => d.uid}
      rowProps={(d) => ({ 'data-id': d.uid })}
    />
  );
}
