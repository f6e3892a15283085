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
import { EventsView, EventView } from './views/EventViews';
import { DeliveriesView, DeliveryView } from './views/DeliveryViews';
import { SourcesView } from './views/SourcesView';
import { SubscriptionsView } from './views/SubscriptionsView';
import { PortalLinksView } from './views/PortalLinksView';
import { MetaEventsView } from './views/MetaEventsView';

export type Project = ResponseOf<typeof api.getProject>;

const SECTIONS: [string, string][] = [
  ['overview', 'Overview'],
  ['endpoints', 'Endpoints'],
  ['events', 'Events'],
  ['deliveries', 'Deliveries'],
  ['sources', 'Sources'],
  ['subscriptions', 'Subscriptions'],
  ['portal-links', 'Portal links'],
  ['meta-events', 'Meta events'],
];

/** A project's section (or one item of it), by the URL: /console/projects/:pid/:section/:id. */
function SectionView({ project, section, id }: { project: Project; section: string; id?: string }) {
  const pid = project.uid;
  switch (section) {
    case 'overview':
      return <OverviewView project={project} />;
    case 'endpoints':
      return id ? <EndpointView pid={pid} id={id} /> : <EndpointsView pid={pid} />;
    case 'events':
      return id ? <EventView pid={pid} id={id} /> : <EventsView pid={pid} />;
    case 'deliveries':
      return id ? <DeliveryView pid={pid} id={id} /> : <DeliveriesView pid={pid} />;
    case 'sources':
      return <SourcesView pid={pid} />;
    case 'subscriptions':
      return <SubscriptionsView pid={pid} />;
    case 'portal-links':
      return <PortalLinksView pid={pid} />;
    case 'meta-events':
      return <MetaEventsView pid={pid} />;
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
          {ctx.session.kind === 'admin' && <Link href="/console">← All projects</Link>}
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
              key={`${props.section}/${props.id}`}
              project={p}
              section={props.section}
              id={props.id}
            />
          )}
        </Loaded>
      </main>
    </div>
  );
}
