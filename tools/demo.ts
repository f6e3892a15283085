/**
 * `npm run demo`: one verified delivery on the running local stack (`npm start`). Starts a receiver
 * in this process, creates project → endpoint → subscription → event through the
 * management API, and prints the request the receiver got with its signature verified by
 * docs/verify/verify.js. Runs from any directory and writes no file.
 *
 *   npm run demo                             # the stack of this checkout (.local/stack.json)
 *   HOOKRAIL_STACK_FILE=/path/stack.json npx tsx tools/demo.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { verifySimple } from '../docs/verify/verify';

const root = path.resolve(__dirname, '..');
const stackFile = process.env.HOOKRAIL_STACK_FILE ?? path.join(root, '.local/stack.json');
const DELIVERY_TIMEOUT_MS = 30_000;

interface Stack {
  gateway_url: string;
  admin_api_key: string;
  services?: Record<string, string>;
}

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  verified: boolean;
  at: number;
}

class DemoError extends Error {}

const notRunning = (why: string) =>
  new DemoError(
    `${why}\nThe local stack is not running. Start it with:\n  cd ${root} && npm start -- --detach\nthen run npm run demo again.`,
  );

function readStack(): Stack {
  if (!existsSync(stackFile)) throw notRunning(`${stackFile} does not exist.`);
  return JSON.parse(readFileSync(stackFile, 'utf8')) as Stack;
}

/** The services the demo needs (the gateway and the dispatcher) answer /readyz with 200. */
async function checkReady(stack: Stack): Promise<void> {
  const services = stack.services ?? { 'api-gateway': new URL(stack.gateway_url).origin };
  for (const name of ['api-gateway', 'dispatcher']) {
    const url = services[name];
    if (!url) continue;
    const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status !== 200)
      throw notRunning(`${name} at ${url} is ${status ? `not ready (/readyz ${status})` : 'not reachable'}.`);
  }
}

async function call<T>(stack: Stack, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.gateway_url}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new DemoError(`${method} ${route} answered ${res.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** A webhook receiver: answers 200 to a request whose signature verifies, 401 otherwise. */
async function startReceiver(secret: () => string | undefined) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const s = secret();
      const signature = req.headers['x-hookrail-signature'];
      const verified = s !== undefined && verifySimple(rawBody, String(signature ?? ''), [s]);
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        verified,
        at: Date.now(),
      });
      res
        .writeHead(verified ? 200 : 401, { 'content-type': 'text/plain' })
        .end(verified ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const line = (label: string, value: string) => console.log(`  ${label.padEnd(14)} ${value}`);

async function main(): Promise<void> {
  const stack = readStack();
  await checkReady(stack);
  console.log(`Hookrail demo on ${stack.gateway_url} (${stackFile})\n`);

  let secret: string | undefined;
  const receiver = await startReceiver(() => secret);
  try {
    line('receiver', `${receiver.url}/hooks (in this process; verifies every request)`);
    const project = await call<{ uid: string; api_key: { key: string } }>(
      stack,
      stack.admin_api_key,
      'POST',
      '/v1/projects',
      { name: `demo-${new Date().toISOString()}`, type: 'outgoing' },
    );
    const p = `/v1/projects/${project.uid}`;
    const key = project.api_key.key;
    line('1 project', `${project.uid}  (its API key: ${key})`);

    const endpoint = await call<{ uid: string; secrets: { value: string }[] }>(
      stack,
      key,
      'POST',
      `${p}/endpoints`,
      {
        name: 'my receiver',
        url: `${receiver.url}/hooks`,
        owner_id: 'customer-1',
      },
    );
    secret = endpoint.secrets[endpoint.secrets.length - 1].value;
    line('2 endpoint', `${endpoint.uid}  signing secret ${secret}`);

    // Deliveries are made per subscription: this one says which events the endpoint gets (no
    // source_id: the events API's; one naming a source would take only that source's events).
    const subscription = await call<{ uid: string }>(stack, key, 'POST', `${p}/subscriptions`, {
      name: 'everything to my receiver',
      endpoint_id: endpoint.uid,
      filter_config: { event_types: ['*'] },
    });
    line('3 subscription', `${subscription.uid}  every event type → ${endpoint.uid}`);

    const sentAt = Date.now();
    const event = await call<{ uid: string }>(stack, key, 'POST', `${p}/events`, {
      endpoint_id: endpoint.uid,
      event_type: 'invoice.paid',
      data: { invoice: 'inv_1001', amount: 4200, currency: 'EUR' },
    });
    line('4 event', `${event.uid}  invoice.paid, sent to the endpoint through the events API`);

    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    while (receiver.received.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const got = receiver.received[0];
    if (!got) {
      const deliveries = await call<{ content: { status: string; latest_response?: unknown }[] }>(
        stack,
        key,
        'GET',
        `${p}/eventdeliveries?event_id=${event.uid}`,
      );
      const ev = await call<{ status: string }>(stack, key, 'GET', `${p}/events/${event.uid}`);
      throw new DemoError(
        `No delivery within ${DELIVERY_TIMEOUT_MS / 1000} s. Event status: ${ev.status}; deliveries: ` +
          `${JSON.stringify(deliveries.content.map((d) => d.status))}.\n` +
          'If the attempt was refused as a private address, start the stack with HOOKRAIL_ALLOW_PRIVATE_TARGETS=true (npm start does).',
      );
    }

    console.log(`\nThe receiver got, ${got.at - sentAt} ms after the event was sent:`);
    console.log(`  ${got.method} ${got.path}`);
    for (const [name, value] of Object.entries(got.headers))
      if (name.startsWith('x-hookrail-') || name === 'content-type' || name === 'user-agent')
        console.log(`  ${name}: ${String(value)}`);
    console.log(`\n  ${got.rawBody.toString('utf8')}\n`);
    if (!got.verified) throw new DemoError('Signature NOT verified: the receiver answered 401.');
    console.log(
      '  signature verified: x-hookrail-signature is the HMAC-SHA256 (hex) of the raw body, keyed with\n' +
        '  the endpoint secret as UTF-8 (docs/verify/verify.js verifySimple); the receiver answered 200.',
    );

    const status = await waitForStatus(stack, key, `${p}/eventdeliveries?event_id=${event.uid}`);
    console.log(`\nDelivery status in the API: ${status}`);
    console.log(
      'More: docs/verifying-webhooks.md (headers, schemes, secret rolling), README.md (API quick start).',
    );
    console.log(
      `  curl -s -H "Authorization: Bearer ${key}" '${stack.gateway_url}${p}/eventdeliveries?event_id=${event.uid}'`,
    );
  } finally {
    await receiver.close();
  }
}

/** The delivery is recorded just after the request is answered: poll briefly for its final status. */
async function waitForStatus(stack: Stack, key: string, route: string): Promise<string> {
  let status = 'unknown';
  for (let i = 0; i < 50; i++) {
    const list = await call<{ content: { status: string }[] }>(stack, key, 'GET', route);
    status = list.content[0]?.status ?? 'not recorded yet';
    if (status === 'Success') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return status;
}

main().catch((err: unknown) => {
  console.error(err instanceof DemoError ? `\n${err.message}` : err);
  process.exit(1);
});
