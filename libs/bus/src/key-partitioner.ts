import { randomInt } from 'node:crypto';
import type { ICustomPartitioner } from 'kafkajs';

const M = 0x5bd1e995;
const SEED = 0x9747b28c;

/**
 * Kafka's murmur2 of a key's UTF-8 bytes, as Java's DefaultPartitioner computes it. kafkajs
 * computes the same hash on 64-bit BigInt wrappers, a few allocations per byte (a tenth of a
 * millisecond per message in the gateway's profile); only the low 32 bits ever count, so 32-bit
 * multiplication gives the same result.
 */
export function murmur2(key: Buffer | string): number {
  const data = typeof key === 'string' ? Buffer.from(key) : key;
  const length = data.length;
  let h = SEED ^ length;
  const whole = length - (length % 4);
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last one to three bytes, folded in together.
  const rest = length - whole;
  if (rest > 0) {
    if (rest === 3) h ^= data[whole + 2] << 16;
    if (rest >= 2) h ^= data[whole + 1] << 8;
    h ^= data[whole];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition of `partitions` a message with this key goes to (Kafka's default for keyed messages). */
export function partitionOfKey(key: Buffer | string, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}

/**
 * kafkajs' DefaultPartitioner with the hash above: a message's own partition if it names one,
 * else its key's, else round robin over the partitions that have a leader.
 */
export const KeyPartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }) => {
    if (message.partition != null) return message.partition;
    if (message.key != null) return partitionOfKey(message.key, partitionMetadata.length);
    const led = partitionMetadata.filter((p) => p.leader >= 0);
    const next = (counters.get(topic) ?? randomInt(2 ** 31)) + 1;
    counters.set(topic, next);
    return led.length > 0 ? led[next % led.length].partitionId : next % partitionMetadata.length;
  };
};
