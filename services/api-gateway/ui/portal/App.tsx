import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { messageOf } from '../components/http';
import { Banner } from '../components/Banner';
import {
  portal,
  portalCall,
  token,
  type EventTypeSeen,
  type PortalCatalogEntry,
  type PortalDeliveryPage,
  type PortalEndpoint,
  type PortalLink,
} from './api';
import { Portal, type PortalContext } from './context';
import { DeliveriesSection, type Cursor } from './DeliveriesSection';
import { DeliveryDetail } from './DeliveryDetail';
import { EndpointDetail } from './EndpointDetail';
import { EndpointsSection } from './EndpointsSection';
import { EventCatalog } from './EventCatalog';
import { EventTypes } from './EventTypes';

interface Data {
  link: PortalLink;
  endpoints: PortalEndpoint[];
  deliveries: PortalDeliveryPage;
  types: EventTypeSeen[];
  catalog: PortalCatalogEntry[];
}

/** Everything the page shows, read again after each action (a link holds a customer's few endpoints). */
async function loadAll(filter: Record<string, string>, cursor: Cursor): Promise<Data> {
  const [link, endpoints, deliveries, types, catalog] = await Promise.all([
    portalCall(portal.portalGetLink),
    portalCall(portal.portalListEndpoints),
    portalCall(portal.portalListDeliveries, { query: { perPage: '25', ...filter, ...cursor } }),
    portalCall(portal.portalListEventTypes),
    portalCall(portal.portalListEventCatalog),
  ]);
  return { link, endpoints, deliveries, types, catalog };
}

/** The customer portal: one link's endpoints, deliveries and event types, owner-scoped by the API. */
export function App() {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState(
    token ? '' : 'This page needs the portal link it was shared as (missing ?token=).',
  );
  const [notice, setNotice] = useState('');
  const [filter, setFilter] = useState<Record<string, string>>({});
  const [cursor, setCursor] = useState<Cursor>({});
  const [tick, setTick] = useState(0);
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [delivery, setDelivery] = useState<string | null>(null);

  const reload = useCallback(() => loadAll(filter, cursor).then(setData), [filter, cursor]);
  useEffect(() => {
    if (token) reload().catch((err: unknown) => setError(messageOf(err)));
  }, [reload]);
  const branding = data?.link.branding;
  const title = branding?.name ?? data?.link.name;
  useEffect(() => {
    if (title) document.title = `${title} · Webhooks portal`;
  }, [title]);
  // the provider's colours as the stylesheet's variables (set through the CSSOM: the page's CSP
  // allows no inline style)
  useEffect(() => {
    const root = document.documentElement.style;
    const set = (name: string, value: string | undefined) =>
      value ? root.setProperty(name, value) : root.removeProperty(name);
    set('--accent', branding?.primary_color);
    set('--bg', branding?.background_color);
  }, [branding?.primary_color, branding?.background_color]);

  const ctx = useMemo<PortalContext | null>(
    () =>
      data && {
        link: data.link,
        endpoints: data.endpoints,
        catalog: data.catalog,
        notice: setNotice,
        error: setError,
        async act(run, done) {
          setError('');
          try {
            await run();
            await reload(); // the page shows the outcome before saying it is done
            setTick((t) => t + 1);
            setNotice(done);
            return true;
          } catch (err) {
            setError(messageOf(err));
            return false;
          }
        },
      },
    [data, reload],
  );
  const selectedEndpoint = data?.endpoints.find((e) => e.uid === endpoint);

  return (
    <>
      <header>
        {branding?.logo_url && <img id="logo" src={branding.logo_url} alt="" height={32} />}
        <h1 id="title">{title ?? 'Webhooks'}</h1>
        <span class="muted" id="subtitle">
          {data
            ? `${branding?.name ? `${data.link.name} · ` : ''}${data.link.endpoint_count} endpoint(s)${data.link.can_manage_endpoint ? ' · you can manage endpoints' : ''}`
            : ''}
        </span>
      </header>
      <main>
        <Banner id="error" kind="error" message={error} />
        <Banner id="notice" kind="notice" message={notice} />
        {ctx && data && (
          <Portal.Provider value={ctx}>
            <EndpointsSection
              selected={endpoint}
              onSelect={(id) => {
                setEndpoint(id);
                // bring the opened endpoint into view once rendered
                requestAnimationFrame(() =>
                  document.getElementById('endpoint-detail')?.scrollIntoView({ block: 'nearest' }),
                );
              }}
            />
            {selectedEndpoint && <EndpointDetail key={selectedEndpoint.uid} e={selectedEndpoint} />}
            <EventCatalog entries={data.catalog} />
            <EventTypes types={data.types} />
            <DeliveriesSection
              page={data.deliveries}
              filter={filter}
              selected={delivery}
              onFilter={(f) => {
                setFilter(f);
                setCursor({});
              }}
              onPage={setCursor}
              onSelect={(id) => {
                setDelivery(id);
                // the detail opens below the list: bring it into view
                requestAnimationFrame(() =>
                  document.getElementById('detail')?.scrollIntoView({ block: 'start' }),
                );
              }}
              onRefresh={() => {
                setNotice('');
                setTick((t) => t + 1);
                reload().catch((err: unknown) => setError(messageOf(err)));
              }}
            />
            {delivery && <DeliveryDetail key={delivery} id={delivery} tick={tick} />}
          </Portal.Provider>
        )}
      </main>
      <ConfirmDialog />
    </>
  );
}
