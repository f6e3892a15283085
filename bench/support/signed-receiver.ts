import { createHmac } from 'node:crypto';
import { startReceiver, type Receiver, type RecordedRequest } from '@hookrail/testkit';

/** What the receiver saw: each event's first arrival (ms epoch), and what should not happen. */
export interface DeliveryTally {
  delivered: Map<string, number>;
  duplicates: number;
  badSignatures: number;
}

const hmacHex = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');

/** Hookrail's scheme: `x-hookrail-signature: <hex HMAC-SHA256(secret, body)>`. */
export const hookrailSignatureOk =
  (secret: string) =>
  (r: RecordedRequest): boolean =>
    hmacHex(secret, r.rawBody) === r.headers['x-hookrail-signature'];

/** Outpost's default scheme: `x-outpost-signature: v0=<hex HMAC-SHA256(secret as-is, body)>`. */
export const outpostSignatureOk =
  (secret: string) =>
  (r: RecordedRequest): boolean =>
    `v0=${hmacHex(secret, r.rawBody)}` === r.headers['x-outpost-signature'];

/**
 * A keep-alive receiver that answers 200, verifies every request's signature and records each
 * event's first arrival by the id in `idHeader`; it keeps no bodies (countOnly), so it costs the
 * bench process little per event.
 */
export async function startSignedReceiver(opts: {
  idHeader: string;
  signatureOk: (r: RecordedRequest) => boolean;
}): Promise<{ receiver: Receiver; tally: DeliveryTally }> {
  const tally: DeliveryTally = { delivered: new Map(), duplicates: 0, badSignatures: 0 };
  const receiver = await startReceiver({
    countOnly: true,
    onRequest: (r) => {
      const id = r.headers[opts.idHeader];
      if (!opts.signatureOk(r)) tally.badSignatures++;
      if (tally.delivered.has(id)) tally.duplicates++;
      else tally.delivered.set(id, r.receivedAt);
    },
  });
  return { receiver, tally };
}
