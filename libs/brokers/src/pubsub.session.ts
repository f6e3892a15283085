import { PubSub, type Message } from '@google-cloud/pubsub';
import type { GoogleSettings } from './settings';
import { InFlight, type Session, type SubscriberOptions } from './subscriber';

/** A message that met a transient failure is nacked after this pause (no hot loop). */
const NACK_DELAY_MS = 1000;
/**
 * The streaming pull retries an unreachable server forever without a word, so the session asks
 * the server for the subscription this often; a failed answer ends the session (the supervisor
 * reports the source unreachable and reopens it with backoff).
 */
const PROBE_INTERVAL_MS = 5000;

export function pubsubClient(s: GoogleSettings): PubSub {
  return new PubSub({
    projectId: s.projectId,
    ...(s.emulatorHost ? { apiEndpoint: s.emulatorHost, emulatorMode: true } : {}),
    ...(s.credentials ? { credentials: s.credentials as { client_email: string; private_key: string } } : {}),
  });
}

/**
 * A streaming pull with `workers` streams and at most `workers × prefetch` messages outstanding.
 * Ack after Kafka acknowledged; a transient failure is nacked (redelivered) after a pause; a
 * rejected message is nacked when the subscription has a dead-letter policy (Pub/Sub forwards it
 * to the dead-letter topic after max_delivery_attempts) and acked (dropped) otherwise.
 */
export async function openPubSub(s: GoogleSettings, opts: SubscriberOptions): Promise<Session> {
  const client = pubsubClient(s);
  const inFlight = new InFlight();
  let closing = false;
  let lost: (err: Error | undefined) => void = () => undefined;
  const closed = new Promise<Error | undefined>((r) => (lost = r));
  let deadLetter = false;
  try {
    const [metadata] = await client.subscription(s.subscriptionId).getMetadata({ timeout: 5000 });
    deadLetter = Boolean(metadata.deadLetterPolicy?.deadLetterTopic);
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  const subscription = client.subscription(s.subscriptionId, {
    flowControl: { maxMessages: opts.workers * opts.prefetch, allowExcessMessages: false },
    streamingOptions: { maxStreams: opts.workers },
  });

  const handle = async (m: Message) => {
    const verdict = await opts.handle({ headers: lowerCase(m.attributes), body: m.data });
    if (verdict.kind === 'ack') return m.ack();
    if (verdict.kind === 'reject') {
      opts.onRejected(verdict.reason, deadLetter ? 'dead_lettered' : 'dropped');
      return deadLetter ? m.nack() : m.ack();
    }
    await new Promise((r) => setTimeout(r, NACK_DELAY_MS));
    m.nack();
  };
  subscription.on('message', (m: Message) => void inFlight.track(handle(m)));
  subscription.on('error', (err: Error) => {
    if (!closing) lost(err);
  });
  const probe = setInterval(() => {
    subscription.getMetadata({ timeout: PROBE_INTERVAL_MS }).catch((err: Error) => {
      if (!closing) lost(err);
    });
  }, PROBE_INTERVAL_MS);
  probe.unref();
  void closed.then(() => clearInterval(probe));

  return {
    closed,
    async close() {
      closing = true;
      clearInterval(probe);
      subscription.removeAllListeners('message');
      await inFlight.idle(5000);
      await subscription.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

function lowerCase(attrs: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(attrs ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}
