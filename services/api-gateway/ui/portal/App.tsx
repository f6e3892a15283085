import { useCallback, useEffect, useMemo, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
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

/** Scrolls the element with this id into view once the next render has shown it. */
const scrollIntoViewWhenShown = (id: string, block: ScrollLogicalPosition) =>
  requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block }));

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

  const reload = useCallback(() => loadAll(filter, cursor).then(setData), [filter, cursor]);
  useEffect(() => {
    if (token) reload().catch((err: unknown) => setError(messageOf(err)));
  }, [reload]);
  useBranding(data?.link);
  const ctx = usePortalContext(data, reload, { setError, setNotice, setTick });

  return (
    <>
      <PortalHeader link={data?.link} />
      <main>
        <Banner id="error" kind="error" message={error} />
        <Banner id="notice" kind="notice" message={notice} />
        {ctx && data && (
          <PortalSections
            ctx={ctx}
            data={data}
            filter={filter}
            tick={tick}
            onFilter={(f) => {
              setFilter(f);
              setCursor({});
            }}
            onPage={setCursor}
            onRefresh={() => {
              setNotice('');
              setTick((t) => t + 1);
              reload().catch((err: unknown) => setError(messageOf(err)));
            }}
          />
        )}
      </main>
      <ConfirmDialog />
    </>
  );
}

/** The loaded page: the endpoints, the one opened, the event types and the deliveries. */
function PortalSections({
  ctx,
  data,
  filter,
  tick,
  onFilter,
  onPage,
  onRefresh,
}: {
  ctx: PortalContext;
  data: Data;
  filter: Record<string, string>;
  tick: number;
  onFilter: (filter: Record<string, string>) => void;
  onPage: (cursor: Cursor) => void;
  onRefresh: () => void;
}) {
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [delivery, setDelivery] = useState<string | null>(null);
  const selectedEndpoint = data.endpoints.find((e) => e.uid === endpoint);
  return (
    <Portal.Provider value={ctx}>
      <EndpointsSection
        selected={endpoint}
        onSelect={(id) => {
          setEndpoint(id);
          // bring the opened endpoint into view once rendered
          scrollIntoViewWhenShown('endpoint-detail', 'nearest');
        }}
      />
      {selectedEndpoint && <EndpointDetail key={selectedEndpoint.uid} e={selectedEndpoint} />}
      <EventCatalog entries={data.catalog} />
      <EventTypes types={data.types} />
      <DeliveriesSection
        page={data.deliveries}
        filter={filter}
        selected={delivery}
        onFilter={onFilter}
        onPage={onPage}
        onSelect={(id) => {
          setDelivery(id);
          // the detail opens below the list: bring it into view
          scrollIntoViewWhenShown('detail', 'start');
        }}
        onRefresh={onRefresh}
      />
      {delivery && <DeliveryDetail key={delivery} id={delivery} tick={tick} />}
    </Portal.Provider>
  );
}

/** The page's title (the branding's name, else the link's) and the provider's colours. */
function useBranding(link: PortalLink | undefined) {
  const branding = link?.branding;
  const title = branding?.name ?? link?.name;
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
}

/** What the sections share, once the data is loaded: `act` runs an action, reloads and says it is done. */
function usePortalContext(
  data: Data | null,
  reload: () => Promise<void>,
  page: {
    setError: (message: string) => void;
    setNotice: (message: string) => void;
    setTick: Dispatch<StateUpdater<number>>;
  },
) {
  const { setError, setNotice, setTick } = page;
  return useMemo<PortalContext | null>(
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
}

/** The header: the provider's logo and name, the link's name and how many endpoints it holds. */
function PortalHeader({ link }: { link: PortalLink | undefined }) {
  const branding = link?.branding;
  const title = branding?.name ?? link?.name;
  return (
    <header>
      {branding?.logo_url && <img id="logo" src={branding.logo_url} alt="" height={32} />}
      <h1 id="title">{title ?? 'Webhooks'}</h1>
      <span class="muted" id="subtitle">
        {link
          ? `${branding?.name ? `${link.name} · ` : ''}${link.endpoint_count} endpoint(s)${link.can_manage_endpoint ? ' · you can manage endpoints' : ''}`
          : ''}
      </span>
    </header>
  );
}
