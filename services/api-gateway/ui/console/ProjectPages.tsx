import { seesAllProjects } from './session';
import type { RefObject } from 'preact';
import type { ResponseOf } from '@hookrail/api-contract';
import { api } from './api';
import { useConsole, pageProject } from './context';
import { Link } from './Link';
import { Loaded } from '../components/Loaded';
import { Screen } from './Screen';
import { useLoad } from '../components/useLoad';
import { OverviewView } from './views/OverviewView';
import { EndpointsView, EndpointView } from './views/EndpointViews';
import { EditEndpointView, NewEndpointView } from './views/EndpointForm';
import { EventsView, EventView } from './views/EventViews';
import { SendEventView } from './views/SendEventForm';
import { DeliveriesView, DeliveryView } from './views/DeliveryViews';
import { SourcesView } from './views/SourcesView';
import { EditSourceView, NewSourceView } from './views/SourceForm';
import {
  EditEventTypeView,
  EventTypesView,
  ImportEventTypesView,
  NewEventTypeView,
} from './views/EventTypesView';
import { SubscriptionsView } from './views/SubscriptionsView';
import { EditSubscriptionView, NewSubscriptionView } from './views/SubscriptionForm';
import { SettingsView } from './views/SettingsView';
import { PortalLinksView } from './views/PortalLinksView';
import { MetaEventsView } from './views/MetaEventsView';
import { AuditLogView } from './views/AuditLogView';

export type Project = ResponseOf<typeof api.getProject>;

const SECTIONS: [string, string][] = [
  ['overview', 'Overview'],
  ['endpoints', 'Endpoints'],
  ['events', 'Events'],
  ['deliveries', 'Deliveries'],
  ['sources', 'Sources'],
  ['subscriptions', 'Subscriptions'],
  ['event-types', 'Event types'],
  ['portal-links', 'Portal links'],
  ['meta-events', 'Meta events'],
  ['audit-log', 'Audit log'],
  ['settings', 'Settings and API keys'],
];

/**
 * A project's section (or one item of it), by the URL: /console/projects/:pid/:section/:id, where
 * `new` is the create form and `:id/edit` an endpoint's edit form.
 */
function SectionView(props: { project: Project; section: string; id?: string; action?: string }) {
  const { project, section, id, action } = props;
  const pid = project.uid;
  switch (section) {
    case 'overview':
      return <OverviewView project={project} />;
    case 'endpoints':
      if (id === 'new') return <NewEndpointView project={project} />;
      if (id && action === 'edit') return <EditEndpointView pid={pid} id={id} />;
      return id ? <EndpointView pid={pid} id={id} /> : <EndpointsView pid={pid} />;
    case 'events':
      if (id === 'new') return <SendEventView pid={pid} />;
      return id ? <EventView pid={pid} id={id} /> : <EventsView pid={pid} />;
    case 'deliveries':
      return id ? <DeliveryView pid={pid} id={id} /> : <DeliveriesView pid={pid} />;
    case 'sources':
      if (id === 'new') return <NewSourceView pid={pid} />;
      return id ? <EditSourceView pid={pid} id={id} /> : <SourcesView pid={pid} />;
    case 'subscriptions':
      if (id === 'new') return <NewSubscriptionView pid={pid} />;
      return id ? <EditSubscriptionView pid={pid} id={id} /> : <SubscriptionsView pid={pid} />;
    case 'event-types':
      if (id === 'new') return <NewEventTypeView pid={pid} />;
      if (id === 'import') return <ImportEventTypesView pid={pid} />;
      return id ? <EditEventTypeView pid={pid} id={id} /> : <EventTypesView pid={pid} />;
    case 'settings':
      return <SettingsView project={project} />;
    case 'portal-links':
      return <PortalLinksView pid={pid} />;
    case 'meta-events':
      return <MetaEventsView pid={pid} />;
    case 'audit-log':
      return <AuditLogView pid={pid} />;
    default:
      return (
        <Screen title="Not found">
          <p>There is no such console page.</p>
        </Screen>
      );
  }
}

/** The project's navigation beside its pages; the project is read first (it may not be ours). */
export function ProjectPages(props: {
  pid: string;
  section: string;
  id?: string;
  action?: string;
  main: RefObject<HTMLElement | null>;
}) {
  const ctx = useConsole();
  const load = useLoad(() => ctx.call(api.getProject, { params: { projectID: props.pid } }), [props.pid]);
  const project = load.state === 'done' ? load.data : null;
  return (
    <div class="layout">
      {project && (
        <nav id="side" aria-label="Project sections">
          <div class="project">{project.name}</div>
          {seesAllProjects(ctx.session) && <Link href="/console">← All projects</Link>}
          {SECTIONS.map(([key, label]) => (
            <Link
              key={key}
              href={pageProject(project.uid) + (key === 'overview' ? '' : `/${key}`)}
              aria-current={key === props.section ? 'page' : undefined}
            >
              {label}
            </Link>
          ))}
        </nav>
      )}
      <main id="app" tabIndex={-1} ref={props.main}>
        <Loaded load={load}>
          {(p) => (
            <SectionView
              key={`${props.section}/${props.id}/${props.action}`}
              project={p}
              section={props.section}
              id={props.id}
              action={props.action}
            />
          )}
        </Loaded>
      </main>
    </div>
  );
}
