import type { ResponseOf } from '@hookrail/api-contract';
import { Allowed, PayloadHidden, useSeesPayloads } from '../../components/grants';
import { Badge } from '../../components/Badge';
import { confirmAction } from '../../components/ConfirmDialog';
import { copyText } from '../../components/clipboard';
import { prettyJson, when } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { ApiError } from '../../components/http';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { DeliveryTable } from '../deliveries';
import { Link } from '../Link';
import { ListView } from '../ListView';
import { LiveToggle } from '../LiveToggle';
import { useEndpointChoices, useSourceChoices } from '../pickers';
import { Loaded } from '../../components/Loaded';
import { Screen } from '../Screen';

// The list filters by the event's own status and by its deliveries' (Scheduled, Discarded).
const EVENT_STATUSES = ['Pending', 'Processing', 'Success', 'Failure', 'Retry', 'Scheduled', 'Discarded'];

export function EventsView({ pid }: { pid: string }) {
  const base = pageProject(pid);
  const endpoints = useEndpointChoices(pid);
  const sources = useSourceChoices(pid);
  return (
    <Screen title="Events">
      <ListView
        op={api.listEvents}
        params={{ projectID: pid }}
        id="events"
        empty="No events yet."
        filters={[
          { key: 'query', label: 'Search payloads', type: 'search' },
          { key: 'event_type', label: 'Event type' },
          { key: 'source_id', label: 'Source', options: sources },
          { key: 'endpoint_id', label: 'Endpoint', options: endpoints },
          { key: 'idempotency_key', label: 'Idempotency key' },
          { key: 'status', label: 'Status', options: EVENT_STATUSES },
          { key: 'start_date', label: 'From', type: 'time' },
          { key: 'end_date', label: 'To', type: 'time' },
        ]}
        toolbar={() => (
          <div class="toolbar">
            <Allowed op={api.createEvent}>
              <Link class="button primary" href={`${base}/events/new`}>
                Send an event
              </Link>
            </Allowed>
          </div>
        )}
        columns={[
          {
            label: 'Created',
            cell: (e) => <Link href={`${base}/events/${e.uid}`}>{when(e.created_at)}</Link>,
          },
          { label: 'Type', cell: (e) => e.event_type },
          {
            label: 'Status',
            cell: (e) => (
              <>
                <Badge status={e.status} />
                {e.status_reason && <div class="muted">{e.status_reason}</div>}
              </>
            ),
          },
          { label: 'Source', cell: (e) => e.source_metadata?.name ?? (e.source_id || '—') },
          { label: 'Endpoints', cell: (e) => (e.endpoint_metadata ?? []).map((x) => x.name).join(', ') },
        ]}
      />
    </Screen>
  );
}

type Event = ResponseOf<typeof api.getEvent>;

/** An event just sent is stored once routed: until then its page waits (and live refresh reloads it). */
function EventPending({ id }: { id: string }) {
  return (
    <Screen title="Event">
      <p id="event-pending" role="status">
        Event <span class="mono">{id}</span> is not stored yet: an event just sent appears here once it is
        routed.
      </p>
      <LiveToggle />
    </Screen>
  );
}

/** The schema violations of an event accepted while the project's validation only warns. */
function ValidationErrors({ errors }: { errors: NonNullable<Event['validation_errors']> }) {
  return (
    <section id="validation-errors" class="alert" aria-labelledby="validation-errors-heading">
      <h2 id="validation-errors-heading">Does not match its event type's schema</h2>
      <p class="muted">Accepted because the project's event validation only warns.</p>
      <ul>
        {errors.map((v) => (
          <li key={`${v.field}|${v.message}`}>
            <span class="mono">{v.field}</span> {v.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ReplayButton({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  return (
    <Allowed op={api.replayEvent}>
      <button
        type="button"
        onClick={async () => {
          if (await confirmAction('Replay this event to its endpoints?', 'Replay event'))
            await act(
              ctx,
              () => ctx.call(api.replayEvent, { params: { projectID: pid, eventID: id } }),
              'Event replayed',
            );
        }}
      >
        Replay event
      </button>
    </Allowed>
  );
}

/** The event's data with a copy button, or a note when the session may not see payloads. */
function EventPayload({ data }: { data: Event['data'] }) {
  const ctx = useConsole();
  const seesPayloads = useSeesPayloads();
  if (!seesPayloads)
    return (
      <>
        <h2>Payload</h2>
        <PayloadHidden />
      </>
    );
  return (
    <>
      <h2>
        Payload{' '}
        <button
          type="button"
          aria-label="Copy payload"
          onClick={() =>
            copyText(prettyJson(data)).then(
              () => ctx.notify('Payload copied'),
              (err: Error) => ctx.notify(`Failed: ${err.message}`),
            )
          }
        >
          Copy
        </button>
      </h2>
      <JsonView id="payload" value={data} />
    </>
  );
}

/** One event: its payload and headers, its deliveries, and the replay. */
export function EventView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const load = useLoad(
    () =>
      Promise.all([
        ctx.call(api.getEvent, { params: { projectID: pid, eventID: id } }),
        ctx.call(api.listEventDeliveries, {
          params: { projectID: pid },
          query: { perPage: 100, event_id: id },
        }),
      ]),
    [pid, id, ctx.tick],
  );
  if (load.state === 'failed' && load.error instanceof ApiError && load.error.status === 404)
    return <EventPending id={id} />;
  return (
    <Loaded load={load}>
      {([e, deliveries]) => (
        <Screen title={`Event ${e.event_type}`}>
          <p>
            <span class="mono">{e.uid}</span> · <Badge status={e.status} /> · {when(e.created_at)}
            {e.idempotency_key ? ` · idempotency key ${e.idempotency_key}` : ''}
          </p>
          {e.status_reason && <p class="muted">{e.status_reason}</p>}
          {e.source_metadata && <p>Source {e.source_metadata.name}</p>}
          {e.validation_errors && e.validation_errors.length > 0 && (
            <ValidationErrors errors={e.validation_errors} />
          )}
          <LiveToggle />
          <div class="toolbar">
            <ReplayButton pid={pid} id={id} />
          </div>
          <EventPayload data={e.data} />
          <h2>Headers</h2>
          <JsonView value={e.headers ?? {}} />
          <h2>Deliveries of this event</h2>
          {deliveries.content.length === 0 ? (
            <div class="empty">This event made no deliveries.</div>
          ) : (
            <DeliveryTable pid={pid} rows={deliveries.content} />
          )}
        </Screen>
      )}
    </Loaded>
  );
}
