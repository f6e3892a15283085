/**
 * What the Kafka client alone costs per message at a steady rate, with no Hookrail code: a kafkajs
 * producer in a child process sends one message per request (acks=-1, as the gateway does at a
 * low rate), and a kafkajs consumer in this process takes them with the consumer settings of
 * libs/bus (eachBatch, its partitions at once and its fetch wait, imported from there). Each is charged
 * its CPU above its own rate at rest (measured for 3 s before), per message, for BENCH_RATES
 * (default 200 and 1,000 per second) over BENCH_SECONDS (default 12) each, BENCH_ROUNDS times.
 * At 200/s every message is a fetch and a produce of its own, as at `npm run bench`'s 200/s phase:
 * this is the part of the gateway's and the dispatcher's CPU per event there that is the client's.
 *
 *   npm run bench:kafka-client        # needs the local Kafka (deploy/local/servers.sh start)
 */
import { fork } from 'node:child_process';
import { Kafka, logLevel } from 'kafkajs';
import { FETCH_MAX_WAIT_MS, PARTITIONS_CONSUMED_AT_ONCE } from '@hookrail/bus';
import { TEST_KAFKA_BROKERS, uniquePrefix } from '@hookrail/testkit';

const RATES = (process.env.BENCH_RATES ?? '200,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PARTITIONS = 12;
const IDLE_MS = 3_000;
const VALUE = Buffer.from(
  JSON.stringify({ event_id: '01JF0000000000000000000000', raw: '{"n":1,"type":"bench.event"}' }),
);
const kafka = new Kafka({ brokers: TEST_KAFKA_BROKERS, logLevel: logLevel.NOTHING, clientId: 'bench' });

const cpuUs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU µs per second this process spends at rest right now. */
async function restRate(): Promise<number> {
  const start = process.cpuUsage();
  await sleep(IDLE_MS);
  return cpuUs(start) / (IDLE_MS / 1000);
}

/** The child: sends `rate` messages a second, one per request, each at its due time. */
async function produce(topic: string, rate: number): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ key: 'warm-up', value: VALUE }] });
  const idle = await restRate();
  const start = process.cpuUsage();
  const t0 = Date.now();
  const total = rate * SECONDS;
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    await producer.send({ topic, acks: -1, messages: [{ key: `k${i % 97}`, value: VALUE }] });
  }
  const aboveIdle = cpuUs(start) - (idle * (Date.now() - t0)) / 1000;
  process.send?.({ sent: total + 1, usPerMessage: aboveIdle / total });
  await producer.disconnect();
}

async function round(rate: number): Promise<string> {
  const topic = `${uniquePrefix('bench-kafka-client')}.t`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: true });
  const consumer = kafka.consumer({ groupId: `${topic}.g`, maxWaitTimeInMs: FETCH_MAX_WAIT_MS });
  let seen = 0;
  let fetches = 0;
  consumer.on(consumer.events.FETCH, () => fetches++);
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: PARTITIONS_CONSUMED_AT_ONCE,
      eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
        for (const m of batch.messages) {
          seen++;
          resolveOffset(m.offset);
        }
        await heartbeat();
      },
    });
    await sleep(2_000); // joined and fetching
    const idle = await restRate();
    const child = fork(__filename, ['produce', topic, String(rate)], { execArgv: process.execArgv });
    const start = process.cpuUsage();
    const t0 = Date.now();
    const fetches0 = fetches;
    const produced = await new Promise<{ sent: number; usPerMessage: number }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { sent: number; usPerMessage: number }));
      child.once('exit', (code) => code && reject(new Error(`producer exited with ${code}`)));
    });
    while (seen < produced.sent) await sleep(20);
    const consumerUs = (cpuUs(start) - (idle * (Date.now() - t0)) / 1000) / produced.sent;
    return `${rate}/s: producer ${produced.usPerMessage.toFixed(0)} µs, consumer ${consumerUs.toFixed(0)} µs per message (${((fetches - fetches0) / produced.sent).toFixed(2)} fetches per message)`;
  } finally {
    await consumer.disconnect();
    await admin.deleteTopics({ topics: [topic] });
    await admin.disconnect();
  }
}

async function main(): Promise<void> {
  for (let r = 1; r <= ROUNDS; r++) for (const rate of RATES) console.log(`round ${r}, ${await round(rate)}`);
}

const [role, topic, rate] = process.argv.slice(2);
(role === 'produce' ? produce(topic, Number(rate)) : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
