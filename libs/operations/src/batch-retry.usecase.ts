import type { DeliveryDoc, DeliveryStatus } from '@hookrail/store';
import { resendLoaded, type OperationDeps } from './resend.usecase';

export interface DeliveryFilter {
  /** Subset of Failure/Discarded; default both. */
  status?: ('Failure' | 'Discarded')[];
  endpoint_id?: string;
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
  projectId: string,
  f: DeliveryFilter,
): Promise<BatchResult> {
  const statuses: DeliveryStatus[] = f.status?.length ? f.status : ['Failure', 'Discarded'];
  const filter: Record<string, unknown> = { status: { $in: statuses } };
  if (f.endpoint_id) filter.endpoint_id = f.endpoint_id;
  if (f.event_id) filter.event_id = f.event_id;
  const created = dateRange(f.start_date, f.end_date);
  if (created) filter.created_at = created;
  const rows: DeliveryDoc[] = await deps.store.deliveries.findMany(projectId, filter, BATCH_LIMIT + 1);
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

export function dateRange(start?: string, end?: string): Record<string, Date> | undefined {
  if (!start && !end) return undefined;
  const range: Record<string, Date> = {};
  if (start) range.$gte = new Date(start);
  if (end) range.$lte = new Date(end);
  return range;
}
