/**
 * What the audit log adds to a state-changing call: times PUT /endpoints/{id} (an update: the
 * audit reads the endpoint before it through the same path's GET, and publishes the record after
 * the answer is sent) against a gateway started in-process on the running Kafka and MongoDB.
 *
 *   npx tsx bench/audit-cost.bench.ts [--calls 400]
 *
 * For the figure without the audit log, run it again with the `audit:` line of the gateway's
 * service.ts (the surface's deps) removed: the mount function then records nothing.
 */
import { parseArgs } from 'node:util';
import { startTestService, testConfig, uniquePrefix } from '@hookrail/testkit';
import { definition } from '../services/api-gateway/src/service';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '400' } } });
const CALLS = Number(values.calls);
const ADMIN = 'hr_admin.test-admin-key-0123456789';

async function main(): Promise<void> {
  const gateway = await startTestService(
    definition(testConfig('api-gateway', { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('audit-bench') })),
  );
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${gateway.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { data: { uid: string; api_key: { key: string } } };
  };
  try {
    const project = (await call('POST', '/v1/projects', ADMIN, { name: 'audit-bench', type: 'outgoing' }))
      .data;
    const key = project.api_key.key;
    const base = `/v1/projects/${project.uid}/endpoints`;
    const endpoint = (await call('POST', base, key, { name: 'e', url: 'https://a.example.com/hook' })).data;
    const took: number[] = [];
    for (let i = 0; i < CALLS + 20; i++) {
      const started = process.hrtime.bigint();
      await call('PUT', `${base}/${endpoint.uid}`, key, {
        name: 'e',
        url: `https://a.example.com/hook/${i}`,
      });
      if (i >= 20) took.push(Number(process.hrtime.bigint() - started) / 1e6); // the first 20 warm up
    }
    took.sort((a, b) => a - b);
    const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))].toFixed(2);
    console.log(`PUT endpoint, ${CALLS} calls one at a time: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  } finally {
    await gateway.stop();
  }
}

void main();
