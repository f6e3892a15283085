import type { Channel } from 'amqplib';
import { errorMessage } from '@hookrail/domain';
import pTimeout from 'p-timeout';
import { connectAmqp } from './amqp.session';
import { kafkaClient } from './kafka.session';
import { BrokerRefusedError, refuseHookrailTopics } from './outbound-guard';
import { pubsubClient } from './pubsub.session';
import {
  describeBroker,
  type AmqpSettings,
  type BrokerSettings,
  type GoogleSettings,
  type KafkaSettings,
  type SqsSettings,
} from './settings';
import { describeQueue, sqsClient } from './sqs.session';

/** A source's settings were tried against its broker and cannot work: `field` names what to fix. */
export interface BrokerProblem {
  field: string;
  message: string;
}

const CHECK_TIMEOUT_MS = 5000;

/**
 * Connects with the source's settings and checks what it will consume exists, so the API can
 * refuse a source that could never consume (unreachable host, bad credentials, missing
 * queue/topic/subscription). Undefined when the settings work.
 */
export async function checkBroker(s: BrokerSettings): Promise<BrokerProblem | undefined> {
  const where = describeBroker(s);
  const check = (): Promise<BrokerProblem | undefined> => {
    switch (s.kind) {
      case 'amqp':
        return checkAmqp(s);
      case 'kafka':
        return checkKafka(s);
      case 'sqs':
        return checkSqs(s);
      case 'google':
        return checkGoogle(s);
    }
  };
  return pTimeout(check(), {
    milliseconds: CHECK_TIMEOUT_MS,
    fallback: () => ({
      field: `pub_sub.${s.kind}`,
      message: `no answer from ${where} within ${CHECK_TIMEOUT_MS} ms`,
    }),
  });
}

async function checkAmqp(s: AmqpSettings): Promise<BrokerProblem | undefined> {
  const f = (field: string, message: string) => ({ field: `pub_sub.amqp.${field}`, message });
  let conn;
  try {
    conn = await connectAmqp(s, CHECK_TIMEOUT_MS - 500);
  } catch (err) {
    const msg = errorMessage(err);
    if (/ACCESS_REFUSED|403/.test(msg)) return f('auth', `${s.address} refused the user or password: ${msg}`);
    if (/vhost|NOT_ALLOWED|530/.test(msg)) return f('vhost', `${s.address}: ${msg}`);
    return f('host', `cannot connect to ${s.address}: ${msg}`);
  }
  conn.on('error', () => undefined);
  // A failed check closes its channel (AMQP 404), so each check gets its own.
  const exists = async (check: (ch: Channel) => Promise<unknown>) => {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    try {
      await check(ch);
      return true;
    } catch {
      return false;
    } finally {
      await ch.close().catch(() => undefined);
    }
  };
  try {
    if (!(await exists((ch) => ch.checkQueue(s.queue))))
      return f('queue', `queue "${s.queue}" does not exist on ${s.address}`);
    const bind = s.bind;
    if (bind && !(await exists((ch) => ch.checkExchange(bind.exchange))))
      return f('bindExchange.exchange', `exchange "${bind.exchange}" does not exist on ${s.address}`);
    const dlx = s.deadLetterExchange;
    if (dlx && !(await exists((ch) => ch.checkExchange(dlx))))
      return f('deadLetterExchange', `exchange "${dlx}" does not exist on ${s.address}`);
    return undefined;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

async function checkKafka(s: KafkaSettings): Promise<BrokerProblem | undefined> {
  const admin = kafkaClient(s, 'hookrail-source-check', 0).admin();
  try {
    await admin.connect();
  } catch (err) {
    const msg = errorMessage(err);
    if (/SASL|authentication|Authentication/i.test(msg))
      return {
        field: 'pub_sub.kafka.auth',
        message: `${s.brokers.join(',')} refused the credentials: ${msg}`,
      };
    return { field: 'pub_sub.kafka.brokers', message: `cannot connect to ${s.brokers.join(',')}: ${msg}` };
  }
  try {
    // The admin is connected already: ask it, rather than open another connection.
    await refuseHookrailTopics(s, async () => (await admin.describeCluster()).clusterId);
    const topics = await admin.listTopics();
    if (!topics.includes(s.topic))
      return {
        field: 'pub_sub.kafka.topic_name',
        message: `topic "${s.topic}" does not exist on ${s.brokers.join(',')}`,
      };
    return undefined;
  } catch (err) {
    if (err instanceof BrokerRefusedError) return { field: err.field, message: err.message };
    return { field: 'pub_sub.kafka.brokers', message: `${s.brokers.join(',')}: ${errorMessage(err)}` };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

async function checkSqs(s: SqsSettings): Promise<BrokerProblem | undefined> {
  const client = sqsClient(s);
  try {
    await describeQueue(client, s.queueName, AbortSignal.timeout(CHECK_TIMEOUT_MS - 500));
    return undefined;
  } catch (err) {
    const name = (err as { name?: string }).name ?? '';
    const msg = errorMessage(err);
    if (/QueueDoesNotExist|NonExistentQueue/.test(name + msg))
      return {
        field: 'pub_sub.sqs.queue_name',
        message: `queue "${s.queueName}" does not exist in ${describeBroker(s)}`,
      };
    if (/InvalidClientTokenId|SignatureDoesNotMatch|UnrecognizedClient|AccessDenied/.test(name + msg))
      return { field: 'pub_sub.sqs.access_key_id', message: `SQS refused the credentials: ${msg}` };
    return { field: 'pub_sub.sqs', message: `cannot reach SQS at ${s.endpoint ?? s.region}: ${msg}` };
  } finally {
    client.destroy();
  }
}

async function checkGoogle(s: GoogleSettings): Promise<BrokerProblem | undefined> {
  const client = pubsubClient(s);
  try {
    const [exists] = await client.subscription(s.subscriptionId).exists();
    if (!exists)
      return {
        field: 'pub_sub.google.subscription_id',
        message: `subscription "${s.subscriptionId}" does not exist in project ${s.projectId}`,
      };
    return undefined;
  } catch (err) {
    const msg = errorMessage(err);
    if (/UNAUTHENTICATED|PERMISSION_DENIED|credentials/i.test(msg))
      return {
        field: 'pub_sub.google.service_account',
        message: `Pub/Sub refused the service account: ${msg}`,
      };
    return { field: 'pub_sub.google', message: `cannot reach Pub/Sub for project ${s.projectId}: ${msg}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}
