import { REQUEST_BODY_CAP } from '@hookrail/api-contract';
import type { DeliveryDoc, Store } from '@hookrail/store';

/** `text` cut to at most `cap` UTF-8 bytes, never inside a character. */
function capText(text: string, cap = REQUEST_BODY_CAP): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return { text, truncated: false };
  // a character cut in two decodes as U+FFFD at the end: drop it
  return {
    text: bytes
      .subarray(0, cap)
      .toString('utf8')
      .replace(/\uFFFD+$/, ''),
    truncated: true,
  };
}

/**
 * The body every attempt of the delivery sent, from what is already stored (nothing is written
 * per attempt): the subscription function's output when it changed the payload, else the event's
 * payload, as the sender builds it. Capped at REQUEST_BODY_CAP bytes.
 */
export async function sentBody(
  store: Store,
  delivery: DeliveryDoc,
): Promise<{ request_body: string; request_body_truncated: boolean }> {
  const body =
    delivery.payload ??
    (await store.deliveries.eventPayloads(delivery.project_id, [delivery.event_id])).get(delivery.event_id) ??
    '';
  const { text, truncated } = capText(body);
  return { request_body: text, request_body_truncated: truncated };
}
