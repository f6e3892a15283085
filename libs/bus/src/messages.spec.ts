import Ajv from 'ajv';
import { asProjectId } from '@hookrail/domain';
import { decodeMessage, encodeMessage, PoisonMessageError } from './codec';
import type { DeadLetterMessage } from './messages';
import { DEAD_LETTERS, TOPIC_KEYS, type TopicMessages } from './topics';

const project_id = asProjectId('01JD0000000000000000000002');

/** One message of each topic, as its producers write it (typed by the same schemas). */
const samples: TopicMessages = {
  events: {
    event_id: '01JD0000000000000000000004',
    project_id,
    source_id: '01JD0000000000000000000005',
    event_type: 'invoice.paid',
    target: { mode: 'single', endpoint_id: '01JD0000000000000000000003' },
    data: { amount: 42, nested: { ok: true } },
    raw: '{"amount":42,"nested":{"ok":true}}',
    headers: { 'content-type': 'application/json' },
    forward_headers: { 'x-tenant': 'acme' },
    idempotency_key: 'k-1',
    accepted_at: '2026-11-23T10:00:00.000Z',
  },
  deliveries: {
    delivery_id: '01JD0000000000000000000001',
    project_id,
    endpoint_id: '01JD0000000000000000000003',
    event_id: '01JD0000000000000000000004',
    reason: 'initial',
    first_send: {
      subscription_id: '01JD0000000000000000000006',
      source_id: null,
      event_type: 'invoice.paid',
      delivery_mode: 'at_least_once',
      payload: null,
      raw: '{}',
      forward_headers: {},
      idempotency_key: null,
      siblings: 2,
      created_at: '2026-11-23T10:00:00.000Z',
      config_version: '7',
      headers: { 'content-type': 'application/json' },
    },
  },
  retries: {
    delivery_id: '01JD0000000000000000000001',
    project_id,
    endpoint_id: '01JD0000000000000000000003',
    due_at: '2026-11-23T10:00:30.000Z',
    reason: 'failed',
    kind: 'meta',
    meta_event_type: 'endpoint.disabled',
  },
  meta: {
    project_id,
    event_type: 'eventdelivery.failed',
    data: { uid: '01JD0000000000000000000001' },
    occurred_at: '2026-11-23T10:00:00.000Z',
  },
  config: { project_id, resource: 'portal_link', id: '01JD0000000000000000000007', op: 'updated' },
  audit: {
    uid: '01JD0000000000000000000008',
    project_id,
    actor: {
      kind: 'api_key',
      via: 'api',
      key_id: '01JD0000000000000000000009',
      key_name: 'ci',
      role: 'admin',
      portal_link_id: null,
      user_id: null,
      email: null,
    },
    operation: 'updateEndpoint',
    method: 'PUT',
    path: '/api/v1/projects/p/endpoints/e',
    resource: { type: 'endpoint', id: '01JD0000000000000000000003' },
    changes: {
      url: { before: 'https://a', after: 'https://b' },
      secret: { before: '[redacted]', after: '[redacted]' },
    },
    fields: ['url', 'secret'],
    status: 202,
    ip: '10.0.0.1',
    user_agent: 'curl/8',
    created_at: '2026-11-23T10:00:00.000Z',
  },
};

describe('message schemas: each topic message is declared once and decoded against it', () => {
  it.each(TOPIC_KEYS)('a %s message conforms to its schema and round-trips', (key) => {
    const message = samples[key];
    expect(decodeMessage(key, encodeMessage(key, message))).toEqual(message);
  });

  it('a message whose field has the wrong type is poison, naming the field', () => {
    const bad = { ...samples.events, headers: { 'content-type': 7 } };
    expect(() => decodeMessage('events', Buffer.from(JSON.stringify(bad)))).toThrow(PoisonMessageError);
    expect(() => decodeMessage('events', Buffer.from(JSON.stringify(bad)))).toThrow(/headers/);
  });

  it('a target missing what its mode needs is poison', () => {
    const bad = { ...samples.events, target: { mode: 'fanout' } };
    expect(() => decodeMessage('events', Buffer.from(JSON.stringify(bad)))).toThrow(PoisonMessageError);
  });

  it('a dead letter conforms to its schema', () => {
    const validate = new Ajv({ strict: false }).compile(DEAD_LETTERS.schema);
    const letter: DeadLetterMessage = {
      topic: 'hookrail.deliveries',
      partition: 0,
      offset: '12',
      group: 'dispatcher',
      key: null,
      value: '{}',
      headers: {},
      error: 'boom',
      error_name: 'Error',
      retriable: true,
      attempts: 3,
      failed_at: '2026-11-23T10:00:00.000Z',
    };
    expect(validate(letter)).toBe(true);
    expect(validate({ ...letter, partition: -1 })).toBe(false);
  });
});
