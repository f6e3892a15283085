import { randomBytes, randomInt } from 'node:crypto';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { KeyPartitioner, murmur2, partitionOfKey } from './key-partitioner';

// kafkajs' own (Java-compatible, BigInt-based) hash: the reference this one must match bit for bit.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (
  key: Buffer | string,
) => number;

const metadata = (n: number, leaderless: number[] = []): PartitionMetadata[] =>
  Array.from({ length: n }, (_, partitionId) => ({
    partitionId,
    partitionErrorCode: 0,
    leader: leaderless.includes(partitionId) ? -1 : 1,
    replicas: [1],
    isr: [1],
  }));

describe('murmur2', () => {
  it('hashes every key length and byte value as kafkajs does', () => {
    for (let length = 0; length <= 70; length++)
      for (let round = 0; round < 20; round++) {
        const key = randomBytes(length);
        expect(murmur2(key)).toBe(kafkajsMurmur2(key));
      }
  });

  it('hashes strings by their UTF-8 bytes, as kafkajs does', () => {
    for (const key of ['', 'a', 'ab', 'abc', '01JDX3ZQ8K4Y2B7N5M6P9R0STV', 'ünïcödé-€-𝄞', 'x'.repeat(1000)])
      expect(murmur2(key)).toBe(kafkajsMurmur2(key));
  });

  it('puts a key on the partition kafkajs DefaultPartitioner picks', () => {
    const theirs = Partitioners.DefaultPartitioner();
    const ours = KeyPartitioner();
    for (const count of [1, 6, 12, 100]) {
      const partitionMetadata = metadata(count);
      for (let i = 0; i < 200; i++) {
        const key = randomBytes(randomInt(1, 40)).toString('base64url');
        const expected = theirs({ topic: 't', partitionMetadata, message: { key, value: null } });
        expect(partitionOfKey(key, count)).toBe(expected);
        expect(ours({ topic: 't', partitionMetadata, message: { key, value: null } })).toBe(expected);
      }
    }
  });
});

describe('KeyPartitioner', () => {
  it("keeps a message's own partition", () => {
    const partition = KeyPartitioner();
    expect(
      partition({
        topic: 't',
        partitionMetadata: metadata(12),
        message: { key: 'k', value: null, partition: 7 },
      }),
    ).toBe(7);
  });

  it('spreads messages without a key over the partitions that have a leader', () => {
    const partition = KeyPartitioner();
    const partitionMetadata = metadata(4, [1, 3]);
    const chosen = new Set(
      Array.from({ length: 50 }, () =>
        partition({ topic: 't', partitionMetadata, message: { value: null } }),
      ),
    );
    expect([...chosen].sort()).toEqual([0, 2]);
  });

  it('still names a partition when none has a leader (the send then waits for one)', () => {
    const partition = KeyPartitioner();
    const chosen = partition({
      topic: 't',
      partitionMetadata: metadata(3, [0, 1, 2]),
      message: { value: null },
    });
    expect([0, 1, 2]).toContain(chosen);
  });
});
