import { ValidationError } from '@hookrail/domain';
import type { SourceDoc } from '@hookrail/store';

type Json = Record<string, unknown>;

/** How each predefined provider signs (spec/behaviour.md, Ingest): only the secret comes from the user. */
export const PROVIDER_HMAC: Record<string, { header: string; hash: string; encoding: string }> = {
  github: { header: 'X-Hub-Signature-256', hash: 'SHA256', encoding: 'hex' },
  shopify: { header: 'X-Shopify-Hmac-SHA256', hash: 'SHA256', encoding: 'base64' },
  twitter: { header: 'X-Twitter-Webhooks-Signature', hash: 'SHA256', encoding: 'base64' },
};

/**
 * Completes a verifier: a provider fixes the hmac header/hash/encoding, a plain hmac verifier must
 * name its header and defaults to SHA256 hex. Throws a 400 naming the field that is missing.
 */
export function completeVerifier(provider: string | null, verifier: Json | null): Json | null {
  if (provider) {
    const preset = PROVIDER_HMAC[provider];
    const hmac = verifier?.hmac as Json | undefined;
    if (!verifier || verifier.type !== 'hmac' || !hmac?.secret)
      throw new ValidationError(`provider ${provider} needs the webhook secret`, [
        {
          field: 'verifier.hmac.secret',
          message: `is required for provider ${provider} (verifier.type hmac)`,
        },
      ]);
    return { type: 'hmac', hmac: { ...preset, secret: hmac.secret } };
  }
  if (verifier?.type === 'hmac') {
    const hmac = verifier.hmac as Json;
    if (!hmac.header)
      throw new ValidationError('verifier.hmac.header is required', [
        { field: 'verifier.hmac.header', message: 'is required' },
      ]);
    return { type: 'hmac', hmac: { hash: 'SHA256', encoding: 'hex', ...hmac } };
  }
  // keep only the sub-object the type selects
  if (verifier && verifier.type !== 'noop')
    return { type: verifier.type, [String(verifier.type)]: verifier[String(verifier.type)] };
  return verifier ? { type: 'noop' } : null;
}

/** Keeps only the broker sub-object `type` selects; fills the worker count. */
export function completePubSub(type: SourceDoc['type'], pubSub: Json | null): Json | null {
  if (type !== 'pub_sub') {
    if (pubSub)
      throw new ValidationError('pub_sub is only for sources of type pub_sub', [
        { field: 'pub_sub', message: 'is only allowed when type is pub_sub' },
      ]);
    return null;
  }
  if (!pubSub)
    throw new ValidationError('pub_sub is required', [
      { field: 'pub_sub', message: 'is required when type is pub_sub' },
    ]);
  const kind = String(pubSub.type);
  return {
    type: kind,
    workers: pubSub.workers ?? 1,
    [kind]: withoutResponseFields(kind, pubSub[kind] as Json),
  };
}

/**
 * Drops the response-only broker fields; a response sent back as a request keeps its amqp binding
 * (flat `bindedExchange`/`routingKey` are read as `bindExchange` when that is absent).
 */
function withoutResponseFields(kind: string, settings: Json): Json {
  if (kind === 'sqs') {
    const { endpoint: _endpoint, ...rest } = settings;
    return rest;
  }
  if (kind !== 'amqp') return settings;
  const { bindedExchange, routingKey, ...rest } = settings as Json & {
    bindedExchange?: string;
    routingKey?: string;
  };
  if (!rest.bindExchange && bindedExchange)
    rest.bindExchange = { exchange: bindedExchange, routingKey: routingKey ?? '' };
  return rest;
}
