/**
 * What encoding one produce request costs in this process: events messages as the gateway
 * publishes them (libs/bus codec, a trace header each) encoded by kafkajs into a Produce request
 * (what `sendBatch` sends), for requests of 1, 16 and 100 messages spread over 12 partitions.
 * Prints µs of CPU per message for each, several rounds. At 200 events/s the gateway sends one
 * message per request; at full load about 16 (bench/RESULTS.md). patches/kafkajs+2.2.4.patch
 * made the first two about 2.5 and 3.5 times cheaper (patches/README.md).
 *
 *   npm run bench:kafka-encode            # BENCH_ROUNDS=3
 */
import { encodeMessage, type EventMessage } from '@hookrail/bus';
import { asProjectId, newId } from '@hookrail/domain';
import { eventMessage } from '@hookrail/testkit';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const produceRequest = require('kafkajs/src/protocol/requests/produce/v7/request');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PARTITIONS = 12;

const PROJECT = asProjectId(newId());
const ENDPOINT = newId();

/** An events message as the gateway publishes it: `raw` only, no parsed `data`. */
function event(i: number): EventMessage {
  const raw = JSON.stringify({ n: i, type: 'bench.event', data: { amount: i % 1000, tags: ['a', 'b'] } });
  return eventMessage(PROJECT, {
    event_type: 'bench.event',
    target: { mode: 'single', endpoint_id: ENDPOINT },
    data: undefined,
    raw,
    headers: {},
    forward_headers: {},
  });
}

function topicData(count: number) {
  const partitions = new Map<number, object[]>();
  for (let i = 0; i < count; i++) {
    const p = i % PARTITIONS;
    if (!partitions.has(p)) partitions.set(p, []);
    partitions.get(p)!.push({
      key: `project-${i}`,
      value: encodeMessage('events', event(i)),
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
  }
  return [
    {
      topic: 'hookrail.events',
      partitions: [...partitions].map(([partition, messages]) => ({ partition, firstSequence: 0, messages })),
    },
  ];
}

async function usPerMessage(count: number, requests: number): Promise<number> {
  const data = topicData(count);
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const encoded = await produceRequest({ acks: -1, timeout: 30_000, topicData: data }).encode();
    if (encoded.buffer.length === 0) throw new Error('empty request');
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (requests * count);
}

async function main(): Promise<void> {
  const sizes: [number, number][] = [
    [1, 20_000],
    [16, 2_000],
    [100, 400],
  ];
  await usPerMessage(16, 500); // warm-up
  for (let round = 1; round <= ROUNDS; round++) {
    const figures: string[] = [];
    for (const [count, requests] of sizes)
      figures.push(`${count} per request ${(await usPerMessage(count, requests)).toFixed(1)} µs`);
    console.log(`round ${round}: CPU per message encoded: ${figures.join(', ')}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
