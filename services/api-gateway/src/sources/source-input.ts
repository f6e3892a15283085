import { REFUSED_SOURCE_TYPES } from '@hookrail/api-contract';
import { ValidationError } from '@hookrail/domain';
import type { SourceDoc } from '@hookrail/store';

type Json = Record<string, unknown>;

/**
 * A provider (github, shopify, twitter) fixes how requests are signed (libs/signing), so its verifier
 * only carries the secret; other verifiers keep only the sub-object their `type` selects. Header,
 * hash and encoding left out of an hmac verifier take libs/signing's defaults at ingest.
 */
export function completeVerifier(provider: string | null, verifier: Json | null): Json | null {
  if (provider) {
    const hmac = verifier?.hmac as Json | undefined;
    if (!verifier || verifier.type !== 'hmac' || !hmac?.secret)
      throw new ValidationError(`provider ${provider} needs the webhook secret`, [
        {
          field: 'verifier.hmac.secret',
          message: `is required for provider ${provider} (verifier.type hmac)`,
        },
      ]);
    return { type: 'hmac', hmac: { secret: hmac.secret } };
  }
  if (!verifier) return null;
  const type = String(verifier.type);
  return type === 'noop' ? { type } : { type, [type]: verifier[type] };
}

/** A 400 on `type` for a source type Hookrail does not serve (the contract's REFUSED_SOURCE_TYPES). */
export function assertServedType(type: SourceDoc['type']): void {
  const why = REFUSED_SOURCE_TYPES[type];
  if (why) throw new ValidationError(`type ${type} is refused`, [{ field: 'type', message: why }]);
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
  if (kind === 'google' && typeof settings.service_account === 'string')
    return { ...settings, service_account: [...Buffer.from(settings.service_account, 'base64')] };
  if (kind !== 'amqp') return settings;
  const { bindedExchange, routingKey, ...rest } = settings as Json & {
    bindedExchange?: string;
    routingKey?: string;
  };
  if (!rest.bindExchange && bindedExchange)
    rest.bindExchange = { exchange: bindedExchange, routingKey: routingKey ?? '' };
  return rest;
}
