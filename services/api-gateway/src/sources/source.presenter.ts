import { nullableTimestamp } from '@hookrail/domain';
import type { SourceDoc, SourceHealthDoc } from '@hookrail/store';
import { SOURCE_CREDENTIALS, open } from '../common/credentials';
import { scopedOut, type PresentContext } from '../common/scoped.presenter';

type Json = Record<string, unknown>;

/** Requests carry `amqp.bindExchange {exchange, routingKey}`; responses flatten it. */
function presentPubSub(pubSub: Json | null | undefined, ctx: PresentContext): Json | null {
  if (!pubSub) return null;
  const out: Json = { ...pubSub, workers: pubSub.workers ?? 1 };
  const amqp = pubSub.amqp as Json | undefined;
  if (amqp) {
    const { bindExchange, ...rest } = amqp as { bindExchange?: { exchange?: string; routingKey?: string } };
    out.amqp = {
      ...rest,
      bindedExchange: bindExchange?.exchange ?? '',
      routingKey: bindExchange?.routingKey ?? '',
    };
  }
  const sqs = pubSub.sqs as Json | undefined;
  if (sqs)
    out.sqs = {
      ...sqs,
      endpoint: ctx.config.brokers.sqsEndpoint ?? `https://sqs.${String(sqs.default_region)}.amazonaws.com`,
    };
  return out;
}

/** What a change stream source watches; the connection string (with its password) is never returned. */
function presentDbChangeStream(cdc: Json | null | undefined): Json | null {
  if (!cdc) return null;
  // The start token is the consumer's business (where a new stream starts), not a setting.
  const { connection_string: _secret, start_token: _start, ...rest } = cdc;
  return { ...rest, restart_requested_at: rest.restart_requested_at ?? null };
}

function presentProviderConfig(doc: SourceDoc): Json | null {
  const twitter = (doc.provider_config as Json | null)?.twitter as Json | undefined;
  if (!twitter && doc.provider !== 'twitter') return null;
  const at = twitter?.crc_verified_at as Date | string | null | undefined;
  return { twitter: { crc_verified_at: at ? nullableTimestamp(new Date(at)) : null } };
}

/** A broker source's consumer state, as the replica running it last reported it. */
function presentSourceHealth(health: SourceHealthDoc | null) {
  if (!health) return null;
  return {
    state: health.state,
    error: health.error ?? null,
    lag_seconds: health.lag_seconds ?? null,
    behind_bytes: health.behind_bytes ?? null,
    behind_changes: health.behind_changes ?? null,
    instance_id: health.instance_id,
    updated_at: nullableTimestamp(new Date(health.updated_at)),
  };
}

/** `health` is given by the sources routes (broker sources); embedded copies leave it out. */
export function presentSource(doc: SourceDoc, ctx: PresentContext, health?: SourceHealthDoc | null) {
  const opened = open(ctx.box, { verifier: doc.verifier, pub_sub: doc.pub_sub }, SOURCE_CREDENTIALS);
  return {
    ...scopedOut(doc),
    name: doc.name,
    type: doc.type,
    provider: doc.provider ?? null,
    provider_config: presentProviderConfig(doc),
    url: `${ctx.config.urls.ingestPublic}/ingest/${doc.mask_id}`,
    mask_id: doc.mask_id,
    is_disabled: doc.is_disabled ?? false,
    forward_headers: doc.forward_headers ?? [],
    idempotency_keys: doc.idempotency_keys ?? [],
    body_function: doc.body_function ?? null,
    header_function: doc.header_function ?? null,
    custom_response: doc.custom_response ?? null,
    pub_sub: presentPubSub(opened.pub_sub, ctx),
    db_change_stream: presentDbChangeStream(doc.db_change_stream),
    verifier: opened.verifier ?? null,
    ...(health !== undefined ? { health: presentSourceHealth(health) } : {}),
  };
}
