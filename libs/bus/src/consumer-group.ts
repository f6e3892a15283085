import type { Consumer, Kafka } from 'kafkajs';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { consume, type ConsumeOptions, type DeadLetterSink, type RunningConsumer } from './consumer';
import { FETCH_MAX_WAIT_MS, MAX_MESSAGE_BYTES, PARTITION_COUNT_TTL_MS } from './kafka-client';
import { countKafkaRequests } from './request-metrics';
import type { TopicKey } from './topics';

export type GroupOptions<K extends TopicKey> = Omit<ConsumeOptions<K>, 'topicName'> & {
  partitionsConcurrently?: number;
  /** The partitions of the topic this member owns after each group join (rebalance). */
  onAssignment?: (partitions: number[]) => void;
  /** A rebalance started: ownership of every partition is about to change. */
  onRebalancing?: () => void;
  /** This group's session timeout, when it must notice a dead member sooner than the default. */
  sessionTimeoutMs?: number;
};

/** A member of a consumer group, consuming until stopped. */
export interface GroupMember {
  consumer: Consumer;
  running: RunningConsumer;
}

/** Joins `groupId` on `topic` and starts consuming it. */
export async function joinGroup<K extends TopicKey>(
  kafka: Kafka,
  groupId: string,
  topic: string,
  opts: GroupOptions<K> & { sessionTimeoutMs: number },
  deps: { logger: Logger; metrics: Metrics; deadLetter: DeadLetterSink; group: string },
): Promise<GroupMember> {
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: opts.sessionTimeoutMs,
    heartbeatInterval: Math.min(3000, Math.floor(opts.sessionTimeoutMs / 3)),
    maxBytes: MAX_MESSAGE_BYTES * 2,
    maxBytesPerPartition: MAX_MESSAGE_BYTES,
    maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
    metadataMaxAge: PARTITION_COUNT_TTL_MS,
    retry: { initialRetryTime: 300, retries: 10, restartOnFailure: async () => true },
  });
  countKafkaRequests(consumer, deps.metrics, `consumer:${deps.group}`);
  await consumer.connect();
  const { onAssignment, onRebalancing } = opts;
  if (onAssignment)
    consumer.on(consumer.events.GROUP_JOIN, (e) => onAssignment(e.payload.memberAssignment[topic] ?? []));
  if (onRebalancing) consumer.on(consumer.events.REBALANCING, () => onRebalancing());
  const running = await consume(
    consumer,
    { ...opts, topicName: topic },
    { ...deps, partitionsConcurrently: opts.partitionsConcurrently },
  );
  return { consumer, running };
}

/** Within a graceful stop's budget: finish and commit what was started, then leave the group. */
const DRAIN_MS = 8000;

export async function leaveGroup(member: GroupMember): Promise<void> {
  await member.running.drain(DRAIN_MS);
  await member.consumer.disconnect();
}
