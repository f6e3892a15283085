import { readFileSync } from 'node:fs';
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs';
import type { Logger } from '@hookrail/telemetry';

export interface BusOptions {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  partitions: number;
  replicationFactor: number;
  /** Default 30 s. */
  sessionTimeoutMs?: number;
  /** TLS to the brokers; `caFile` (PEM) is trusted besides the system CAs. */
  tls?: { caFile?: string };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** Large enough for a payload at the highest project limit plus its headers. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * How long a topic's partition count is trusted: by barriers, by the producer's partitioner, and by
 * consumers, which rejoin their group when they see partitions added (kafkajs' default is 5 min).
 */
export const PARTITION_COUNT_TTL_MS = 60_000;

/**
 * How long the broker holds a consumer's fetch that finds nothing: a message that arrives meanwhile
 * is answered at once, so this costs no latency, only idle polls (Kafka's CPU at low rates).
 */
export const FETCH_MAX_WAIT_MS = 500;

/** Partitions one consumer handles at once (kafkajs' partitionsConsumedConcurrently), by default. */
export const PARTITIONS_CONSUMED_AT_ONCE = 3;

/** The kafkajs `ssl` / `sasl` settings for the options (none: plaintext). */
export function kafkaSecurity(
  options: Pick<BusOptions, 'tls' | 'sasl'>,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const out: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (options.tls) out.ssl = options.tls.caFile ? { ca: [readFile(options.tls.caFile)] } : true;
  if (options.sasl) {
    const { mechanism, username, password } = options.sasl;
    // kafkajs types each mechanism separately; the three share one shape.
    out.sasl = { mechanism, username, password } as KafkaConfig['sasl'];
  }
  return out;
}

/** The kafkajs client for the options, logging through the service's logger (warnings and errors). */
export function createKafka(options: BusOptions, logger: Logger): Kafka {
  const log = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ...kafkaSecurity(options),
    connectionTimeout: 3000,
    requestTimeout: 30000,
    retry: { initialRetryTime: 200, retries: 8 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }) => {
        const { message, ...rest } = entry;
        if (level <= logLevel.ERROR) log.error(rest, message);
        else log.warn(rest, message);
      },
  });
}
