/**
 * The events API reduced to the design card's packages (bench/floor.bench.ts): express with
 * express.json and one route that publishes each event through the gateway's own batching
 * publisher (acks=-1) and answers 201 with the event. No authentication, rate limit, validation,
 * tracing, metrics or logs: what is left is the cost of the packages themselves.
 *   node floor-gateway.js PORT TOPIC_PREFIX
 */
import express from 'express';
import { Kafka, logLevel } from 'kafkajs';
import { BatchingPublisher } from '@hookrail/bus';
import { newId } from '@hookrail/domain';
import type { EventMessage } from '@hookrail/bus';

const [port, prefix] = process.argv.slice(2);

async function main(): Promise<void> {
  const kafka = new Kafka({
    clientId: 'floor-gateway',
    brokers: ['127.0.0.1:9092'],
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ idempotent: true });
  await producer.connect();
  const publisher = new BatchingPublisher(producer, prefix);
  const app = express();
  app.post('/api/v1/projects/:project/events', express.json({ limit: '1mb' }), async (req, res) => {
    const body = req.body as { endpoint_id: string; event_type: string; data: unknown };
    const event = {
      project_id: req.params.project,
      event_id: newId(),
      endpoint_id: body.endpoint_id,
      event_type: body.event_type,
      data: body.data,
      raw: JSON.stringify(body.data),
      created_at: new Date().toISOString(),
    };
    await publisher.publish('events', [event as unknown as EventMessage]);
    res
      .status(201)
      .json({ status: true, message: 'Event accepted', data: { uid: event.event_id, ...event } });
  });
  app.get('/readyz', (_req, res) => res.send('ok'));
  app.listen(Number(port), '127.0.0.1');
}

// A clean exit on the bench's SIGTERM, so that --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.once('SIGTERM', () => process.exit(0));
void main();
