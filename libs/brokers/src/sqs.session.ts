import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { SqsSettings } from './settings';
import { InFlight, type Session, type SubscriberOptions } from './subscriber';

/**
 * Long polling: a receive waits this long for messages before answering empty. Short, because a
 * stop waits for the receive in flight instead of aborting it: an abandoned receive still takes
 * the next message off the queue on the server, hiding it for the visibility timeout.
 */
const WAIT_SECONDS = 2;
/** A received message stays invisible this long unless deleted or released. */
const VISIBILITY_SECONDS = 10;
/** A message that met a transient failure reappears after this long. */
const RETRY_VISIBILITY_SECONDS = 2;
/** SQS returns at most 10 messages per receive. */
const RECEIVE_MAX = 10;

export function sqsClient(s: SqsSettings): SQSClient {
  return new SQSClient({
    region: s.region,
    credentials: s.credentials,
    maxAttempts: 2,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
  });
}

/** The queue's URL and whether it has a redrive policy (a dead-letter queue). */
export async function describeQueue(client: SQSClient, queueName: string, signal?: AbortSignal) {
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: queueName }), {
    abortSignal: signal,
  });
  const attrs = await client.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['RedrivePolicy'] }),
    { abortSignal: signal },
  );
  return { url: QueueUrl!, hasDeadLetterQueue: Boolean(attrs.Attributes?.RedrivePolicy) };
}

/** What a session's receive loops share. */
interface SqsLoop {
  client: SQSClient;
  queue: { url: string; hasDeadLetterQueue: boolean };
  opts: SubscriberOptions;
  inFlight: InFlight;
  closing: () => boolean;
  /** Ends the session with `err`, unless it is stopping. */
  fail: (err: unknown) => void;
}

/**
 * `workers` long-polling loops, each receiving up to `prefetch` (at most 10) messages at a time
 * and handling them together. Acked messages are deleted in one batch. A rejected message is made
 * visible at once when the queue has a redrive policy, so SQS moves it to the dead-letter queue
 * after maxReceiveCount receives; without one it is deleted (dropped). A transient failure leaves
 * the message to reappear after a short visibility timeout.
 */
export async function openSqs(s: SqsSettings, opts: SubscriberOptions): Promise<Session> {
  const client = sqsClient(s);
  const queue = await describeQueue(client, s.queueName).catch((err: unknown) => {
    client.destroy();
    throw err;
  });
  const inFlight = new InFlight();
  let closing = false;
  let lost: (err: Error | undefined) => void = () => undefined;
  const closed = new Promise<Error | undefined>((r) => (lost = r));
  const loop: SqsLoop = {
    client,
    queue,
    opts,
    inFlight,
    closing: () => closing,
    fail: (err) => {
      if (!closing) lost(err instanceof Error ? err : new Error(String(err)));
    },
  };
  const workers = Array.from({ length: opts.workers }, () => receiveLoop(loop).catch(loop.fail));

  return {
    closed,
    async close() {
      closing = true;
      await Promise.all(workers);
      await inFlight.idle(5000);
      client.destroy();
    },
  };
}

// Each worker keeps receiving while its earlier batches are handled (at most `prefetch`
// messages in flight per worker): a round trip to SQS is far longer than handling a batch.
async function receiveLoop(loop: SqsLoop): Promise<void> {
  const { client, queue, opts } = loop;
  let held = 0;
  const batches = new Set<Promise<void>>();
  while (!loop.closing()) {
    while (held + RECEIVE_MAX > Math.max(RECEIVE_MAX, opts.prefetch)) await Promise.race(batches);
    const out = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: Math.min(RECEIVE_MAX, opts.prefetch),
        WaitTimeSeconds: WAIT_SECONDS,
        VisibilityTimeout: VISIBILITY_SECONDS,
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) continue;
    if (loop.closing()) {
      // received while stopping: back to the queue now
      await changeVisibility(
        loop,
        messages.map((m) => ({ m, seconds: 0 })),
      );
      break;
    }
    held += messages.length;
    const batch: Promise<void> = loop.inFlight
      .track(handleBatch(loop, messages))
      .catch(loop.fail)
      .finally(() => {
        held -= messages.length;
        batches.delete(batch);
      });
    batches.add(batch);
  }
  await Promise.all(batches);
}

async function handleBatch(loop: SqsLoop, messages: Message[]): Promise<void> {
  const { client, queue, opts } = loop;
  const outcomes = await Promise.all(
    messages.map(async (m) => ({
      m,
      verdict: await opts.handle({ headers: attributesOf(m), body: Buffer.from(m.Body ?? '', 'utf8') }),
    })),
  );
  const remove: Message[] = [];
  const release: { m: Message; seconds: number }[] = [];
  for (const { m, verdict } of outcomes) {
    if (verdict.kind === 'ack') remove.push(m);
    else if (verdict.kind === 'retry') release.push({ m, seconds: RETRY_VISIBILITY_SECONDS });
    else if (queue.hasDeadLetterQueue) {
      release.push({ m, seconds: 0 });
      opts.onRejected(verdict.reason, 'dead_lettered');
    } else {
      remove.push(m);
      opts.onRejected(verdict.reason, 'dropped');
    }
  }
  // Not aborted on stop: what Kafka acknowledged must be deleted before the session ends.
  if (remove.length > 0)
    await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: remove.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    );
  if (release.length > 0) await changeVisibility(loop, release);
}

/** Makes each message visible again after its `seconds`. */
async function changeVisibility(loop: SqsLoop, messages: { m: Message; seconds: number }[]): Promise<void> {
  await loop.client.send(
    new ChangeMessageVisibilityBatchCommand({
      QueueUrl: loop.queue.url,
      Entries: messages.map(({ m, seconds }, i) => ({
        Id: String(i),
        ReceiptHandle: m.ReceiptHandle,
        VisibilityTimeout: seconds,
      })),
    }),
  );
}

function attributesOf(m: Message): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.MessageAttributes ?? {}))
    if (v.StringValue !== undefined) out[k.toLowerCase()] = v.StringValue;
  return out;
}
