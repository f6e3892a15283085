import { useState } from 'preact/hooks';
import { CatalogChoices, namesIn } from '../components/CatalogChoices';
import { Destination } from '../components/Destination';
import { BrokerEndpointForm } from './BrokerEndpointForm';
import { confirmAction } from '../components/ConfirmDialog';
import { DataTable } from '../components/DataTable';
import { portal, portalCall, type PortalEndpoint } from './api';
import { usePortal } from './context';
import { StateBadges, StateReasons } from './EndpointState';

/** Adds an endpoint owned by the link, subscribed to the typed or picked event types (empty: all). */
function CreateEndpointForm() {
  const { act, catalog } = usePortal();
  const [types, setTypes] = useState('');
  return (
    <form
      id="create-form"
      class="filters"
      aria-label="Add an endpoint"
      onSubmit={async (ev) => {
        ev.preventDefault();
        const form = ev.currentTarget;
        const field = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value;
        const picked = namesIn(types);
        const body = {
          name: field('name'),
          url: field('url'),
          ...(picked.length ? { event_types: picked } : {}),
        };
        if (await act(() => portalCall(portal.portalCreateEndpoint, { body }), 'Endpoint added')) {
          form.reset();
          setTypes('');
        }
      }}
    >
      <label>
        Name
        <input name="name" required />
      </label>
      <label>
        URL
        <input name="url" required type="url" placeholder="your HTTPS receiver" />
      </label>
      <label>
        Event types
        <input
          name="event_types"
          placeholder="comma-separated (empty: all)"
          value={types}
          onInput={(e) => setTypes(e.currentTarget.value)}
        />
      </label>
      <CatalogChoices
        id="create-form-catalog"
        names={catalog.map((t) => t.name)}
        value={types}
        onChange={setTypes}
      />
      <button class="primary" type="submit">
        Add endpoint
      </button>
    </form>
  );
}

/** A handler that keeps the click from the row (the row's click opens the endpoint). */
const stop = (fn: () => unknown) => (ev: Event) => {
  ev.stopPropagation(); // the row's click opens the endpoint
  void fn();
};

/** An endpoint row's buttons: its secrets; for a managing link, pause or activate, and delete. */
function EndpointActions({
  e,
  manage,
  onSelect,
}: {
  e: PortalEndpoint;
  manage: boolean;
  onSelect: (id: string) => void;
}) {
  const { act } = usePortal();
  const params = { endpointID: e.uid };
  return (
    <span class="row-actions">
      <button type="button" aria-label={`Secrets of ${e.name}`} onClick={stop(() => onSelect(e.uid))}>
        Secrets
      </button>
      {manage &&
        (e.status === 'active' ? (
          <button
            type="button"
            onClick={stop(() =>
              act(() => portalCall(portal.portalPauseEndpoint, { params }), 'Endpoint paused'),
            )}
          >
            Pause
          </button>
        ) : (
          <button
            type="button"
            onClick={stop(() =>
              act(() => portalCall(portal.portalActivateEndpoint, { params }), 'Endpoint activated'),
            )}
          >
            Activate
          </button>
        ))}
      {manage && (
        <button
          type="button"
          class="danger"
          onClick={stop(async () => {
            if (await confirmAction(`Delete endpoint ${e.name}?`, 'Delete'))
              await act(() => portalCall(portal.portalDeleteEndpoint, { params }), 'Endpoint deleted');
          })}
        >
          Delete
        </button>
      )}
    </span>
  );
}

/** The link's endpoints with their state; a managing link pauses, activates and deletes them. */
export function EndpointsSection({
  selected,
  onSelect,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { link, endpoints } = usePortal();
  const manage = link.can_manage_endpoint;
  return (
    <section id="endpoints-section" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">Endpoints</h2>
      {manage && <CreateEndpointForm />}
      {manage && <BrokerEndpointForm />}
      <DataTable<PortalEndpoint>
        id="endpoints"
        rows={endpoints}
        empty={
          manage
            ? 'No endpoints yet. Add one above: give it a name and the HTTPS URL of your receiver, and the webhooks start arriving.'
            : 'No endpoints yet. Ask your provider to add the URL of your webhook receiver.'
        }
        rowKey={(e) => e.uid}
        rowProps={(e) => ({
          'data-endpoint': e.uid,
          class: `clickable${selected === e.uid ? ' selected' : ''}`,
          onClick: () => onSelect(e.uid),
        })}
        columns={[
          { label: 'Name', cell: (e) => e.name },
          { label: 'Destination', cell: (e) => <Destination e={e} /> },
          {
            label: 'Status',
            cell: (e) => (
              <>
                <StateBadges e={e} />
                <StateReasons e={e} />
              </>
            ),
          },
          { label: 'Events', cell: (e) => String(e.events) },
          { label: 'Failure rate', cell: (e) => `${e.failure_rate}%` },
          {
            label: 'Actions',
            hiddenLabel: true,
            cell: (e) => <EndpointActions e={e} manage={manage} onSelect={onSelect} />,
          },
        ]}
      />
    </section>
  );
}
