import { Allowed } from '../../components/grants';
import { useEffect, useRef } from 'preact/hooks';
import { AttemptList, AttemptTable } from '../../components/AttemptDetail';
import { Badge } from '../../components/Badge';
import { confirmAction } from '../../components/ConfirmDialog';
import { when } from '../../components/format';
import { messageOf } from '../../components/http';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole, type ConsoleContext } from '../context';
import { DELIVERY_STATUSES, DeliveryActions, deliveryColumns } from '../deliveries';
import { Link } from '../Link';
import { ListView } from '../ListView';
import { useEndpointChoices, useSubscriptionChoices } from '../pickers';
import { Loaded } from '../../components/Loaded';
import { Screen } from '../Screen';
import { SessionEnded } from '../session';

type Filter = Record<string, string>;
const BATCH_KEYS = ['endpoint_id', 'event_id', 'start_date', 'end_date'];

/**
 * Batch retry over the list's filter (failed and discarded only, as the API does). Counts first,
 * one list call per status (100 at most each), so the confirmation says how many.
 */
async function batchRetry(ctx: ConsoleContext, pid: string, listFilter: Filter) {
  // the API's batch retry filters by endpoint, event, status and time only
  if (listFilter.subscription_id)
    return ctx.notify('Batch retry cannot filter by subscription: clear that filter first');
  const filter: Filter = {};
  for (const k of BATCH_KEYS) if (listFilter[k]) filter[k] = listFilter[k];
  const statuses: ('Failure' | 'Discarded')[] =
    listFilter.status === 'Failure' || listFilter.status === 'Discarded'
      ? [listFilter.status]
      : ['Failure', 'Discarded'];
  const describe = Object.entries(filter).map(([k, v]) => `${k} = ${v}`);
  try {
    const counts = await Promise.all(
      statuses.map(async (status) => {
        const page = await ctx.call(api.listEventDeliveries, {
          params: { projectID: pid },
          query: { ...filter, status, perPage: 100 },
        });
        return `${page.content.length}${page.pagination.has_next_page ? '+' : ''}`;
      }),
    );
    const howMany = statuses.map((s, i) => `${counts[i]} ${s}`).join(' and ');
    const message = `Retry ${howMany} deliveries${describe.length ? ` with ${describe.join(', ')}` : ' of this project'} (up to 1,000 per run)?`;
    if (!(await confirmAction(message, 'Retry'))) return;
    const r = await ctx.call(api.batchRetryEventDeliveries, {
      params: { projectID: pid },
      body: { ...filter, status: statuses },
    });
    ctx.notify(
      `Batch retry: ${r.resent} of ${r.matched} matching deliveries resent${r.more ? '; more remain, run it again' : ''}`,
    );
    ctx.refresh();
  } catch (err) {
    if (!(err instanceof SessionEnded)) ctx.notify(`Failed: ${messageOf(err)}`);
  }
}

export function DeliveriesView({ pid }: { pid: string }) {
  const ctx = useConsole();
  const endpoints = useEndpointChoices(pid);
  const subscriptions = useSubscriptionChoices(pid);
  const selected = useRef(new Set<string>());
  return (
    <Screen title="Deliveries">
      <ListView
        op={api.listEventDeliveries}
        params={{ projectID: pid }}
        id="deliveries"
        empty="No deliveries yet."
        filters={[
          { key: 'status', label: 'Status', options: [...DELIVERY_STATUSES] },
          { key: 'endpoint_id', label: 'Endpoint', options: endpoints },
          { key: 'event_id', label: 'Event id' },
          { key: 'subscription_id', label: 'Subscription', options: subscriptions },
          { key: 'start_date', label: 'From', type: 'time' },
          { key: 'end_date', label: 'To', type: 'time' },
        ]}
        columns={[
          {
            label: 'Select',
            cell: (d) => (
              <input
                type="checkbox"
                aria-label={`Select delivery ${d.uid}`}
                onChange={(e) =>
                  e.currentTarget.checked ? selected.current.add(d.uid) : selected.current.delete(d.uid)
                }
              />
            ),
          },
          ...deliveryColumns(pid),
        ]}
        toolbar={(_page, filter) => (
          <div class="toolbar">
            <Allowed op={api.forceResendEventDeliveries}>
              <button
                type="button"
                onClick={async () => {
                  const ids = [...selected.current];
                  if (ids.length === 0) return ctx.notify('Select deliveries first');
                  if (await confirmAction(`Force resend ${ids.length} selected deliveries?`, 'Force resend'))
                    await act(
                      ctx,
                      () =>
                        ctx.call(api.forceResendEventDeliveries, {
                          params: { projectID: pid },
                          body: { ids },
                        }),
                      `Resent ${ids.length} deliveries`,
                    );
                }}
              >
                Force resend selected
              </button>
            </Allowed>
            <Allowed op={api.batchRetryEventDeliveries}>
              <button type="button" id="batch-retry" onClick={() => batchRetry(ctx, pid, filter)}>
                Batch retry matching filter
              </button>
            </Allowed>
          </div>
        )}
      />
    </Screen>
  );
}

/** One delivery: its state, the actions its status allows, and every attempt's request and response. */
export function DeliveryView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const params = { projectID: pid, deliveryID: id };
  const base = pageProject(pid);
  const load = useLoad(
    () =>
      Promise.all([
        ctx.call(api.getEventDelivery, { params }),
        ctx.call(api.listDeliveryAttempts, { params }),
      ]),
    [pid, id, ctx.tick],
  );
  const status = load.state === 'done' ? load.data[0].status : undefined;
  useFollowUntilSettled(status);
  return (
    <Loaded load={load}>
      {([d, attempts]) => (
        <Screen title="Delivery">
          <p>
            <span class="mono">{d.uid}</span> · <Badge status={d.status} /> · {d.event_type} ·{' '}
            <Link href={`${base}/events/${d.event_id}`}>event</Link> ·{' '}
            {d.endpoint_metadata ? (
              <Link href={`${base}/endpoints/${d.endpoint_id}`}>endpoint {d.endpoint_metadata.name}</Link>
            ) : (
              <span class="mono">endpoint {d.endpoint_id} (deleted)</span>
            )}
            {d.next_attempt_at ? ` · next attempt ${when(d.next_attempt_at)}` : ''}
          </p>
          {d.status_reason && <p class="muted">{d.status_reason}</p>}
          <div class="toolbar">
            <DeliveryActions pid={pid} d={d} />
          </div>
          <h2>Attempts ({attempts.length})</h2>
          <AttemptTable attempts={attempts} />
          <AttemptList attempts={attempts} sent={d} />
        </Screen>
      )}
    </Loaded>
  );
}

/** How long the page follows a delivery on its way (retried now, resent), reading it every second. */
const FOLLOW_MS = 30_000;

/**
 * While the delivery is on its way (Scheduled after a retry or resend, Processing), the page reads
 * it again every second, so the new attempt shows without a reload; it stops once the delivery
 * settles, or after FOLLOW_MS.
 */
function useFollowUntilSettled(status: string | undefined) {
  const ctx = useConsole();
  const since = useRef<number | null>(null);
  useEffect(() => {
    const moving = status === 'Scheduled' || status === 'Processing';
    if (!moving) {
      since.current = null;
      return;
    }
    since.current ??= Date.now();
    if (Date.now() - since.current > FOLLOW_MS) return;
    const timer = setTimeout(() => ctx.refresh(), 1000);
    return () => clearTimeout(timer);
  }, [status, ctx.tick]);
}
