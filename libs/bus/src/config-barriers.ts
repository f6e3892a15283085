import { randomUUID } from 'node:crypto';
import type { ProjectId } from '@hookrail/domain';
import type { ConfigBarrier } from './messages';
import type { ProducerConnection } from './producer-connection';
import type { TopicAdmin } from './topic-admin';
import { BARRIER_TOPICS, CONFIG_BARRIER_HEADER } from './topics';

/**
 * Announces that a project's configuration changed: a configuration barrier with a fresh token on
 * every partition of the topics whose consumers cache configuration (BARRIER_TOPICS). Resolves
 * once Kafka acknowledged all of them, so every message published after it is consumed after a
 * barrier (docs/decisions.md, "Configuration changes").
 */
export async function announceConfigChange(
  producer: ProducerConnection,
  topics: TopicAdmin,
  projectId: ProjectId,
): Promise<ConfigBarrier> {
  const barrier: ConfigBarrier = { project_id: projectId, token: randomUUID() };
  const value = JSON.stringify(barrier);
  const topicMessages = await Promise.all(
    BARRIER_TOPICS.map(async (key) => {
      const topic = topics.topic(key);
      const count = await topics.partitionCount(topic);
      return {
        topic,
        messages: Array.from({ length: count }, (_, partition) => ({
          partition,
          key: projectId,
          value,
          headers: { [CONFIG_BARRIER_HEADER]: '1' },
        })),
      };
    }),
  );
  await (await producer.producerOf()).sendBatch({ acks: -1, topicMessages });
  return barrier;
}
