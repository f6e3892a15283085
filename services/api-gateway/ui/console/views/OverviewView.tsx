import { when } from '../../components/format';
import { useLoad } from '../../components/useLoad';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { DeliveryTable } from '../deliveries';
import { Link } from '../Link';
import type { Project } from '../ProjectPages';
import { Loaded } from '../../components/Loaded';
import { Screen } from '../Screen';
import { LiveToggle } from '../LiveToggle';
import { StatsPanel, statsWindow } from '../StatsPanel';

interface Step {
  done: boolean;
  text: string;
  href: string;
  action: string;
}

/**
 * What a new project needs before anything is delivered, in order, each with the link to its form:
 * an outgoing project an endpoint, a subscription, then an event; an incoming one first a source
 * (its ingest URL receives the events). Shown while a step is left.
 */
function GettingStarted({ project, steps }: { project: Project; steps: Step[] }) {
  const next = steps.find((s) => !s.done);
  if (!next) return null;
  const empty = steps.every((s) => !s.done);
  return (
    <section class="getting-started" id="getting-started" aria-labelledby="getting-started-heading">
      <h2 id="getting-started-heading">{empty ? 'This project is empty: get started' : 'Get started'}</h2>
      <p>
        {project.type === 'incoming'
          ? 'An incoming project receives events from providers at a source and delivers them to your endpoints:'
          : 'An outgoing project delivers the events you send to your customers’ endpoints:'}
      </p>
      <ol>
        {steps.map((s) => (
          <li key={s.href} class={s.done ? 'done' : undefined}>
            {s.text} {s.done ? <span class="muted">(done)</span> : <Link href={s.href}>{s.action}</Link>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function stepsOf(
  project: Project,
  counts: { sources: number; endpoints: number; subs: number; events: number },
) {
  const base = pageProject(project.uid);
  const endpoint: Step = {
    done: counts.endpoints > 0,
    text: 'Create an endpoint: the URL deliveries are sent to.',
    href: `${base}/endpoints/new`,
    action: 'New endpoint',
  };
  const subscription: Step = {
    done: counts.subs > 0,
    text:
      project.type === 'incoming'
        ? 'Create a subscription: which source’s events go to which endpoint.'
        : 'Create a subscription: which event types go to the endpoint.',
    href: `${base}/subscriptions/new`,
    action: 'New subscription',
  };
  if (project.type === 'incoming')
    return [
      {
        done: counts.sources > 0,
        text: 'Create a source: the ingest URL a provider sends its webhooks to (or a broker to read).',
        href: `${base}/sources/new`,
        action: 'New source',
      },
      endpoint,
      subscription,
      {
        done: counts.events > 0,
        text: 'Send a request to the source’s ingest URL (copy it from the sources list).',
        href: `${base}/sources`,
        action: 'Sources',
      },
    ];
  return [
    endpoint,
    subscription,
    {
      done: counts.events > 0,
      text: 'Send an event and watch its delivery.',
      href: `${base}/events/new`,
      action: 'Send an event',
    },
  ];
}

/** A project at a glance: endpoint health, the charts, the latest failures. */
export function OverviewView({ project }: { project: Project }) {
  const ctx = useConsole();
  const params = { projectID: project.uid };
  const base = pageProject(project.uid);
  const win = statsWindow(ctx.where.query);
  const load = useLoad(
    () =>
      Promise.all([
        ctx.call(api.listEndpoints, { params, query: { perPage: 100 } }),
        ctx.call(api.listEventDeliveries, { params, query: { perPage: 10, status: 'Failure' } }),
        ctx.call(api.getDeliveryStats, { params, query: { window: win } }),
        Promise.all([
          project.type === 'incoming' ? ctx.call(api.listSources, { params, query: { perPage: 1 } }) : null,
          ctx.call(api.listSubscriptions, { params, query: { perPage: 1 } }),
          ctx.call(api.listEvents, { params, query: { perPage: 1 } }),
        ]),
      ]),
    [project.uid, win, ctx.tick],
  );
  return (
    <Screen title={project.name}>
      <LiveToggle />
      <Loaded load={load}>
        {([endpoints, failed, stats, [sources, subs, events]]) => {
          const list = endpoints.content;
          const open = list.filter((e) => e.circuit_breaker.state !== 'closed');
          const paused = list.filter((e) => e.status !== 'active');
          const backlog = `${stats.retry_backlog.count}${stats.retry_backlog.capped ? '+' : ''}`;
          const steps = stepsOf(project, {
            sources: sources?.content.length ?? 0,
            endpoints: list.length,
            subs: subs.content.length,
            events: events.content.length,
          });
          return (
            <>
              <GettingStarted project={project} steps={steps} />
              <div class="grid">
                <div class="stat">
                  <b>{`${list.length}${endpoints.pagination.has_next_page ? '+' : ''}`}</b>endpoints
                </div>
                <div class="stat">
                  <b>{paused.length}</b>paused or inactive endpoints
                </div>
                <div class="stat">
                  <b>{open.length}</b>endpoints with an open circuit breaker
                </div>
                <div class="stat">
                  <b>{backlog}</b>
                  <Link href={`${base}/deliveries?status=Retry`}>deliveries waiting for a retry</Link>
                </div>
              </div>
              <StatsPanel pid={project.uid} stats={stats} />
              <h2>Project</h2>
              <p>
                Id <span class="mono">{project.uid}</span> · type {project.type} · created{' '}
                {when(project.created_at)}
              </p>
              <h2>
                Latest failed deliveries <Link href={`${base}/deliveries?status=Failure`}>see all</Link>
              </h2>
              {failed.content.length === 0 ? (
                <div class="empty">No failed deliveries.</div>
              ) : (
                <DeliveryTable pid={project.uid} rows={failed.content} />
              )}
            </>
          );
        }}
      </Loaded>
    </Screen>
  );
}
