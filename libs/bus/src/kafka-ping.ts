import type { Admin, Kafka } from 'kafkajs';
import pTimeout from 'p-timeout';

/**
 * Readiness: Kafka answers a metadata request for one of the service's own topics in time. One
 * connected admin client serves every ping and is dropped when one fails: a client per ping meant
 * a new connection and its handshake every few seconds in every process.
 *
 * Not `describeCluster`: kafkajs sends its empty topic list as null, which asks for every topic in
 * the cluster, so each check (every 5 s, in every process) decoded the metadata of a shared
 * cluster's every partition (about 2 MB for 3,000 partitions). A missing topic fails the ping, as
 * a service without its topics cannot work.
 */
export class KafkaPing {
  private admin?: Promise<Admin>;

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string,
  ) {}

  /** No retries: readiness must answer fast. */
  async ping(timeoutMs = 2000): Promise<boolean> {
    const check = (async () => {
      await (await this.client()).fetchTopicMetadata({ topics: [this.topic] });
      return true;
    })().catch(() => false);
    const ok = await pTimeout(check, { milliseconds: timeoutMs, fallback: () => false });
    if (!ok) this.close();
    return ok;
  }

  close(): void {
    const admin = this.admin;
    this.admin = undefined;
    void admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  private client(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin({ retry: { retries: 0 } });
      await admin.connect();
      return admin;
    })();
    return this.admin;
  }
}
