import { amqpQueue, kafkaTopic, pubsubSubscription, sqsQueue, type TestHeaders } from '@hookrail/testkit';
import type { Kind } from './broker-stack';

export interface BrokerFixture {
  publish(bodies: (string | object)[], headers?: TestHeaders): Promise<void>;
  /** Messages in the dead-letter queue/topic; undefined for Kafka (no dead-letter facility). */
  deadCount?: () => Promise<number>;
  close(): Promise<void>;
}

/** A fresh queue / topic / subscription named `name` on the local server of `kind`, with dead-lettering set up. */
export async function brokerFixture(kind: Kind, name: string): Promise<BrokerFixture> {
  switch (kind) {
    case 'amqp': {
      const q = await amqpQueue(name, { deadLetterExchange: `${name}.dlx` });
      return { publish: q.publish, deadCount: () => q.count(`${name}.dead`), close: q.close };
    }
    case 'sqs': {
      const q = await sqsQueue(name, { deadLetter: true });
      return { publish: q.publish, deadCount: q.deadCount, close: q.close };
    }
    case 'google': {
      const s = await pubsubSubscription(name, { deadLetter: true });
      return { publish: s.publish, deadCount: s.deadCount, close: s.close };
    }
    case 'kafka':
      return kafkaTopic(name);
  }
}
