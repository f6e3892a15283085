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
      ]),
    [project.uid, win, ctx.tick],
  );
  return (
    <Screen title={project.name}>
      <LiveToggle />
      <Loaded load={load}>
        {([endpoints, failed, stats]) => {
          const list = endpoints.content;
          const open = list.filter((e) => e.circuit_breaker.state !== 'closed');
          const paused = list.filter((e) => e.status !== 'active');
          const backlog = `${stats.retry_backlog.count}${stats.retry_backlog.capped ? '+' : ''}`;
          return (
            <>
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
