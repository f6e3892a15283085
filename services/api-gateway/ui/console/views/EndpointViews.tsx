import { Allowed } from '../../components/grants';
import { Destination } from '../../components/Destination';
import { useState } from 'preact/hooks';
import { Badge } from '../../components/Badge';
import { confirmAction } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { when } from '../../components/format';
import { SecretValue } from '../../components/SecretValue';
import { ENDPOINT_STATUSES, type ResponseOf } from '@hookrail/api-contract';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { Link } from '../Link';
import { ListView } from '../ListView';
import { LiveToggle } from '../LiveToggle';
import { navigate } from '../location';
import { Loaded } from '../../components/Loaded';
import { Screen } from '../Screen';
import { StatsPanel, statsWindow } from '../StatsPanel';
import { BlockedKeys } from './BlockedKeys';

type Endpoint = ResponseOf<typeof api.getEndpoint>;
type Secret = Endpoint['secrets'][number];

function StateWithReason({ state, reason }: { state: string; reason?: string | null }) {
  return (
    <>
      <Badge status={state} />
      {reason && <div class="muted">{reason}</div>}
    </>
  );
}
const Breaker = ({ e }: { e: Endpoint }) => (
  <StateWithReason state={e.circuit_breaker.state} reason={e.circuit_breaker.reason} />
);
// The API's failure_rate is already a percentage (0-100).
const failureRate = (e: Endpoint) => `${Math.round(e.failure_rate)} %`;

function PauseButton({ pid, e }: { pid: string; e: Endpoint }) {
  const ctx = useConsole();
  const params = { projectID: pid, endpointID: e.uid };
  // activate also re-enables an inactive endpoint (disabled, or by the health checks)
  return e.status !== 'active' ? (
    <Allowed op={api.activateEndpoint}>
      <button
        type="button"
        onClick={() => act(ctx, () => ctx.call(api.activateEndpoint, { params }), 'Endpoint activated')}
      >
        Activate
      </button>
    </Allowed>
  ) : (
    <Allowed op={api.pauseEndpoint}>
      <button
        type="button"
        onClick={() => act(ctx, () => ctx.call(api.pauseEndpoint, { params }), 'Endpoint paused')}
      >
        Pause
      </button>
    </Allowed>
  );
}

function DeleteEndpointButton({ pid, e }: { pid: string; e: Endpoint }) {
  const ctx = useConsole();
  return (
    <button
      type="button"
      class="danger"
      onClick={async () => {
        if (!(await confirmAction(`Delete endpoint ${e.name} and its subscriptions?`, 'Delete endpoint')))
          return;
        if (
          await act(
            ctx,
            () => ctx.call(api.deleteEndpoint, { params: { projectID: pid, endpointID: e.uid } }),
            'Endpoint deleted',
          )
        )
          navigate(`${pageProject(pid)}/endpoints`);
      }}
    >
      Delete
    </button>
  );
}

export function EndpointsView({ pid }: { pid: string }) {
  const base = pageProject(pid);
  return (
    <Screen title="Endpoints">
      <ListView
        op={api.listEndpoints}
        params={{ projectID: pid }}
        id="endpoints"
        empty="No endpoints yet."
        filters={[
          { key: 'q', label: 'Search names', type: 'search' },
          { key: 'status', label: 'Status', options: [...ENDPOINT_STATUSES] },
          { key: 'owner_id', label: 'Owner id' },
        ]}
        toolbar={() => (
          <div class="toolbar">
            <Allowed op={api.createEndpoint}>
              <Link class="button primary" href={`${base}/endpoints/new`}>
                New endpoint
              </Link>
            </Allowed>
          </div>
        )}
        columns={[
          { label: 'Name', cell: (e) => <Link href={`${base}/endpoints/${e.uid}`}>{e.name}</Link> },
          { label: 'Destination', cell: (e) => <Destination e={e} /> },
          { label: 'Status', cell: (e) => <StateWithReason state={e.status} reason={e.status_reason} /> },
          { label: 'Circuit breaker', cell: (e) => <Breaker e={e} /> },
          { label: 'Failure rate', cell: failureRate },
          {
            label: 'Actions',
            cell: (e) => (
              <span class="row-actions">
                <PauseButton pid={pid} e={e} />
                <Link href={`${base}/deliveries?endpoint_id=${e.uid}`}>Deliveries</Link>
              </span>
            ),
          },
        ]}
      />
    </Screen>
  );
}

function RollSecretForm({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const [seconds, setSeconds] = useState('3600');
  const [secret, setSecret] = useState('');
  return (
    <Allowed op={api.expireSecret}>
      <form
        class="filters"
        id="roll-form"
        onSubmit={async (ev) => {
          ev.preventDefault();
          if (
            !(await confirmAction(
              `Roll the signing secret? The current one stays valid for ${seconds} seconds.`,
              'Roll secret',
            ))
          )
            return;
          await act(
            ctx,
            () =>
              ctx.call(api.expireSecret, {
                params: { projectID: pid, endpointID: id },
                body: { expiration: Number(seconds), secret: secret.trim() || undefined },
              }),
            'Secret rolled',
          );
        }}
      >
        <label>
          Old secret stays valid (seconds)
          <input
            id="roll-expiration"
            type="number"
            min="0"
            class="narrow"
            value={seconds}
            onInput={(e) => setSeconds(e.currentTarget.value)}
          />
        </label>
        <label>
          New secret (generated when empty)
          <input
            id="roll-secret"
            type="password"
            autocomplete="new-password"
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Roll secret</button>
      </form>
    </Allowed>
  );
}

/** One endpoint: its state, charts, signing secrets (hidden until revealed) and the secret roll. */
export function EndpointView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const base = pageProject(pid);
  const win = statsWindow(ctx.where.query);
  const load = useLoad(
    () =>
      Promise.all([
        ctx.call(api.getEndpoint, { params: { projectID: pid, endpointID: id } }),
        ctx.call(api.getDeliveryStats, {
          params: { projectID: pid },
          query: { window: win, endpointId: id },
        }),
      ]),
    [pid, id, win, ctx.tick],
  );
  return (
    <Loaded load={load}>
      {([e, stats]) => (
        <Screen title={`Endpoint ${e.name}`}>
          <section class="card">
            <p>
              <Destination e={e} />
            </p>
            <p>
              Status <StateWithReason state={e.status} reason={e.status_reason} /> · circuit breaker{' '}
              <Breaker e={e} /> · failure rate {failureRate(e)}
            </p>
            <p class="muted">
              Owner {e.owner_id || '—'} · timeout {e.http_timeout} s · rate limit {e.rate_limit} per{' '}
              {e.rate_limit_duration} s
            </p>
            <div class="toolbar">
              <Allowed op={api.updateEndpoint}>
                <Link class="button" href={`${base}/endpoints/${e.uid}/edit`}>
                  Edit
                </Link>
              </Allowed>
              <Allowed op={api.createEvent}>
                <Link class="button" href={`${base}/events/new?endpoint_id=${e.uid}`}>
                  Send test event
                </Link>
              </Allowed>
              <PauseButton pid={pid} e={e} />
              <Allowed op={api.deleteEndpoint}>
                <DeleteEndpointButton pid={pid} e={e} />
              </Allowed>
              <Link href={`${base}/deliveries?endpoint_id=${e.uid}`}>Deliveries of this endpoint</Link>
              <Link href={`${base}/events?endpoint_id=${e.uid}`}>Events</Link>
            </div>
          </section>
          <BlockedKeys pid={pid} id={id} />
          <LiveToggle />
          <StatsPanel pid={pid} stats={stats} />
          <h2>Signing secrets</h2>
          <DataTable<Secret>
            id="secrets"
            rowKey={(s) => s.uid}
            rows={(e.secrets ?? []).filter((s) => !s.deleted_at)}
            columns={[
              {
                label: 'Secret',
                cell: (s) => (
                  <span class="row-actions">
                    <SecretValue
                      value={s.value}
                      onCopied={() => ctx.notify('Secret copied')}
                      onCopyFailed={(m) => ctx.notify(`Failed: ${m}`)}
                    />
                  </span>
                ),
              },
              { label: 'Created', cell: (s) => when(s.created_at) },
              { label: 'Expires', cell: (s) => (s.expires_at ? when(s.expires_at) : 'current') },
            ]}
          />
          <RollSecretForm pid={pid} id={id} />
        </Screen>
      )}
    </Loaded>
  );
}
