import type { EndpointDoc, SourceDoc, SubscriptionDoc } from '@hookrail/store';
import { presentEndpoint } from '../endpoints/endpoint.presenter';
import { parseStored, scopedOut } from '../common/scoped.presenter';
import { presentSource } from '../sources/source.presenter';
import type { PresentContext } from '../common/scoped.presenter';
import { presentOrdering } from './ordering-input';

function presentSubscription(
  doc: SubscriptionDoc,
  related: { source: SourceDoc | null; endpoint: EndpointDoc | null },
  ctx: PresentContext,
) {
  const filter = doc.filter_config?.filter;
  return {
    ...scopedOut(doc),
    name: doc.name,
    type: doc.type ?? 'api',
    app_id: doc.app_id ?? null,
    delivery_mode: doc.delivery_mode ?? 'at_least_once',
    function: doc.function ?? null,
    alert_config: doc.alert_config ?? null,
    rate_limit_config: doc.rate_limit_config ?? null,
    filter_config: {
      event_types: doc.filter_config?.event_types ?? ['*'],
      filter: {
        body: parseStored(filter?.body_json, {}),
        headers: parseStored(filter?.headers_json, {}),
        // stored filters are flattened to dot paths on write
        is_flattened: true,
      },
    },
    retry_config: doc.retry_config ?? null,
    ...presentOrdering(doc.ordering),
    source_metadata: related.source ? presentSource(related.source, ctx) : null,
    endpoint_metadata: related.endpoint ? presentEndpoint(related.endpoint, ctx) : null,
    device_metadata: null,
  };
}

/** Loads the linked sources and endpoints of many subscriptions in two queries. */
export async function presentSubscriptions(
  docs: SubscriptionDoc[],
  ctx: PresentContext & {
    store: {
      sources: { findByIds(p: string, ids: string[]): Promise<SourceDoc[]> };
      endpoints: { findByIds(p: string, ids: string[]): Promise<EndpointDoc[]> };
    };
  },
) {
  if (docs.length === 0) return [];
  const projectId = docs[0].project_id;
  const unique = (ids: (string | null)[]) => [...new Set(ids.filter((x): x is string => Boolean(x)))];
  const [sources, endpoints] = await Promise.all([
    ctx.store.sources.findByIds(projectId, unique(docs.map((d) => d.source_id))),
    ctx.store.endpoints.findByIds(projectId, unique(docs.map((d) => d.endpoint_id))),
  ]);
  const source = new Map(sources.map((s) => [s._id, s]));
  const endpoint = new Map(endpoints.map((e) => [e._id, e]));
  return docs.map((d) =>
    presentSubscription(
      d,
      {
        source: (d.source_id && source.get(d.source_id)) || null,
        endpoint: endpoint.get(d.endpoint_id) ?? null,
      },
      ctx,
    ),
  );
}
