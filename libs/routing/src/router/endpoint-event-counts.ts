import type { ProjectId } from '@hookrail/domain';
import type { EndpointEventCount, Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { SumBuffer } from '@hookrail/toolbox';

/**
 * Each endpoint's `events` statistic (events routed to it), added up in memory and written every
 * couple of seconds, one `$inc` per endpoint. Written per router batch, at 300 events/s over 20
 * endpoints it was 154 updates a second and two fifths of the local server's CPU
 * (docs/isolation.md). Best-effort like the delivery charts: a graceful stop writes what is
 * pending; a process that dies loses at most its last couple of seconds of counts.
 */
export class EndpointEventCounts {
  private readonly sums: SumBuffer<EndpointEventCount>;

  constructor(store: Pick<Store, 'endpoints'>, logger: Pick<Logger, 'warn'>, flushMs?: number) {
    this.sums = new SumBuffer({
      write: (counts) => store.endpoints.addEventCounts(counts),
      merge: (sum, next) => void (sum.events += next.events),
      onError: (err, endpoints) => logger.warn({ err, endpoints }, 'endpoint event counts not written'),
      flushMs,
    });
  }

  /** One event routed to this endpoint. */
  add(projectId: ProjectId, endpointId: string): void {
    this.sums.add(`${projectId}/${endpointId}`, { projectId, endpointId, events: 1 });
  }

  /** Writes what has been added so far; never throws. */
  flush(): Promise<void> {
    return this.sums.flush();
  }
}
