import type { SignatureConfig } from '@hookrail/api-contract';
import { USER_AGENT } from '@hookrail/outbound';
import { signatureHeaderNames, signatureHeaders, type SigningSecret } from '@hookrail/signing';
import type { SecretBox } from '@hookrail/domain';
import type { DeliveryDoc, EndpointDoc } from '@hookrail/store';

/** What a request needs of the delivery's event. */
export interface EventForDelivery {
  _id: string;
  event_type: string;
  raw: string;
  forward_headers: Record<string, string>;
  idempotency_key: string | null;
}

/** Headers we set ourselves: forwarded or custom headers may not override them. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'host',
  'connection',
  'transfer-encoding',
]);

/**
 * Ours and every signature scheme's headers: a forwarded or custom header must never pass for (or
 * sit beside) a signature Hookrail computed, which would happen where the endpoint has no valid
 * secret or the name differs only in case.
 */
function isSignatureHeader(lower: string, reserved: Set<string>): boolean {
  return reserved.has(lower) || lower.startsWith('x-hookrail-');
}

/**
 * The body and headers of one attempt: compact JSON, our headers,
 * forwarded/custom headers, then signatures computed over the exact body bytes. Auth is added
 * last by the caller.
 */
export function buildRequest(opts: {
  delivery: DeliveryDoc;
  event: EventForDelivery;
  endpoint: EndpointDoc;
  signature: SignatureConfig;
  box: SecretBox;
  now: Date;
}): { body: Buffer; headers: Record<string, string> } {
  const { delivery, event, endpoint } = opts;
  const body = Buffer.from(delivery.payload ?? event.raw, 'utf8');
  const headers: Record<string, string> = {};
  const reservedForSignatures = signatureHeaderNames(opts.signature);
  for (const [name, value] of Object.entries(event.forward_headers)) {
    const lower = name.toLowerCase();
    if (!RESERVED.has(lower) && !isSignatureHeader(lower, reservedForSignatures))
      headers[name] = String(value);
  }
  Object.assign(headers, {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Hookrail-Delivery-Id': delivery._id,
    'X-Hookrail-Event-Id': event._id,
    'X-Hookrail-Event-Type': event.event_type,
  });
  if (event.idempotency_key) headers['X-Hookrail-Idempotency-Key'] = event.idempotency_key;
  const secrets: SigningSecret[] = (endpoint.secrets ?? []).map((s) => ({
    value: opts.box.open(s.value),
    created_at: new Date(s.created_at),
    expires_at: s.expires_at ? new Date(s.expires_at) : null,
    deleted_at: s.deleted_at ? new Date(s.deleted_at) : null,
  }));
  const signed = signatureHeaders({
    body,
    secrets,
    advanced: endpoint.advanced_signatures,
    config: opts.signature,
    msgId: delivery._id,
    now: opts.now,
  });
  Object.assign(headers, signed.headers);
  return { body, headers };
}
