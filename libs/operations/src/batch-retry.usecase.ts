import { createdRangeOf, type DeliveryDoc, type DeliveryStatus } from '@hookrail/store';
import { resendLoaded, type OperationDeps } from './resend.usecase';
import type { ProjectId } from '@hookrail/domain';

type RetriableStatus = 'Failure' | 'Discarded';

export interface DeliveryFilter {
  /** One of Failure/Discarded or a subset of them; default both. */
  status?: RetriableStatus | RetriableStatus[];
  endpoint_id?: string;
  /** Deliveries to any of these endpoints; with endpoint_id too, both must hold. */
  endpoint_ids?: string[];
  event_id?: string;
  start_date?: string;
  end_date?: string;
}

/** Most deliveries one batch call resends; the response says when more matched. */
export const BATCH_LIMIT = 1000;

export interface BatchResult {
  matched: number;
  resent: number;
  /** True when more deliveries matched than one call resends: call again. */
  more: boolean;
}

/** Batch retry by filter: every matching delivery in Failure or Discarded is resent. */
export async function batchRetry(
  deps: OperationDeps,
  projectId: ProjectId,
  f: DeliveryFilter,
): Promise<BatchResult> {
  const given = typeof f.status === 'string' ? [f.status] : (f.status ?? []);
  const statuses: DeliveryStatus[] = given.length > 0 ? given : ['Failure', 'Discarded'];
  const rows: DeliveryDoc[] = await deps.store.deliveries.list(
    projectId,
    {
      statuses,
      endpointIds: anyOf(f.endpoint_id || undefined, f.endpoint_ids),
      eventId: f.event_id || undefined,
      createdRange: createdRangeOf(f.start_date, f.end_date),
    },
    BATCH_LIMIT + 1,
  );
  const batch = rows.slice(0, BATCH_LIMIT);
  const outcomes = await resendLoaded(
    deps,
    projectId,
    batch,
    batch.map((d) => d._id),
    'resend',
  );
  const resent = [...outcomes.values()].filter((o) => o.kind === 'resent').length;
  return { matched: batch.length, resent, more: rows.length > BATCH_LIMIT };
}

/** The values a one-valued and a list-valued filter of the same field both allow (undefined: any). */
function anyOf(one: string | undefined, several: readonly string[] | undefined): string[] | undefined {
  if (several) return one === undefined ? [...several] : several.filter((v) => v === one);
  return one === undefined ? undefined : [one];
}
