import { createHmac } from 'node:crypto';
import { newId } from '@hookrail/domain';
import type { RunningService } from '@hookrail/runtime';
import type { EventValidationConfig, SourceDoc, Store } from '@hookrail/store';
import {
  connectTestStore,
  makeProject,
  makeSource,
  startTestService,
  testConfig,
  uniquePrefix,
  waitFor,
} from '@hookrail/testkit';
import { definition as dispatcherDefinition } from '../../dispatcher/src/service';
import { definition } from './service';

jest.setTimeout(60_000);

const pushSchema = {
  type: 'object',
  required: ['ref'],
  properties: {
    ref: { type: 'string', pattern: '^refs/' },
    commits: { type: 'array', items: { type: 'object', required: ['id'] } },
  },
};

/**
 * The event type catalog's check on HTTP sources, each mode on the real servers: a GitHub source
 * (its type from X-GitHub-Event) and a plain one (untyped: `*`), events stored by the dispatcher.
 */
describe('ingest: events checked against the event type catalog', () => {
  const prefix = uniquePrefix('ingest-validation');
  let store: Store;
  let ingest: RunningService;
  let dispatcher: RunningService;

  beforeAll(async () => {
    store = await connectTestStore();
    ingest = await startTestService(
      definition(testConfig('ingest', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix })),
    );
    dispatcher = await startTestService(
      dispatcherDefinition(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix })),
    );
  });

  afterAll(async () => {
    await ingest?.stop();
    await dispatcher?.stop();
    await store?.close();
  });

  /** A project with the settings and `push` in its catalog, a GitHub source and a plain one. */
  async function projectWith(validation: EventValidationConfig) {
    const projectId = await makeProject(store, { event_validation: validation });
    await store.eventCatalog.insert(projectId, {
      _id: newId(),
      name: 'push',
      description: '',
      category: '',
      json_schema_json: JSON.stringify(pushSchema),
      example_json: null,
      deprecated_at: null,
    });
    const github = await makeSource(store, projectId, {
      name: 'gh',
      provider: 'github',
      verifier: { type: 'hmac', hmac: { secret: 'gh' } },
    });
    const plain = await makeSource(store, projectId, { name: 'plain' });
    return { projectId, github, plain };
  }

  async function send(source: SourceDoc, data: unknown, eventType?: string) {
    const body = JSON.stringify(data);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (eventType) {
      headers['x-github-event'] = eventType;
      headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', 'gh').update(body).digest('hex')}`;
    }
    const res = await fetch(`${ingest.url}/ingest/${source.mask_id}`, { method: 'POST', headers, body });
    return {
      status: res.status,
      json: (await res.json()) as {
        status: boolean;
        message: string;
        data: { event_id?: string; errors?: { field: string; message: string }[] };
      },
    };
  }

  // generous: on a loaded machine the dispatcher may take a while to join its group
  const stored = (source: SourceDoc, eventId: string) =>
    waitFor(`event ${eventId} stored`, () => store.events.findById(source.project_id, eventId), {
      timeoutMs: 30_000,
    });

  it('enforce: refuses a mismatch with 400 naming each failing path, and an unknown or untyped event', async () => {
    const { github, plain } = await projectWith({ mode: 'enforce', unknown_types: 'refuse' });
    const bad = await send(github, { ref: 'main', commits: [{ id: 'a' }, { sha: 'b' }] }, 'push');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      status: false,
      message:
        'data does not match the schema of event type "push": data.ref must match pattern "^refs/"; data.commits.1.id is required',
      data: {
        errors: [
          { field: 'data.ref', message: 'must match pattern "^refs/"' },
          { field: 'data.commits.1.id', message: 'is required' },
        ],
      },
    });
    const ok = await send(github, { ref: 'refs/heads/main', commits: [{ id: 'a' }] }, 'push');
    expect(ok.status).toBe(200);
    expect((await stored(github, ok.json.data.event_id!)).validation_errors).toEqual([]);

    const unknown = await send(github, { action: 'opened' }, 'issues');
    expect(unknown.status).toBe(400);
    expect(unknown.json.data.errors).toEqual([
      { field: 'event_type', message: '"issues" is not in the project\'s event type catalog' },
    ]);
    const untyped = await send(plain, { any: 1 });
    expect(untyped.status).toBe(400);
    expect(untyped.json.message).toBe('event_type "*" is not in the project\'s event type catalog');
  });

  it('enforce with unknown types allowed: only typed events with a schema are checked', async () => {
    const { github, plain } = await projectWith({ mode: 'enforce', unknown_types: 'allow' });
    expect((await send(github, { action: 'opened' }, 'issues')).status).toBe(200);
    expect((await send(plain, { any: 1 })).status).toBe(200);
    expect((await send(github, { ref: 1 }, 'push')).json.data.errors).toEqual([
      { field: 'data.ref', message: 'must be string' },
    ]);
  });

  it('warn: accepts a mismatch and an unknown type, recording the violations on the stored event', async () => {
    const { github, plain } = await projectWith({ mode: 'warn', unknown_types: 'warn' });
    const bad = await send(github, { commits: [{}] }, 'push');
    expect(bad.status).toBe(200);
    expect((await stored(github, bad.json.data.event_id!)).validation_errors).toEqual([
      { field: 'data.ref', message: 'is required' },
      { field: 'data.commits.0.id', message: 'is required' },
    ]);
    const untyped = await send(plain, { any: 1 });
    expect(untyped.status).toBe(200);
    expect((await stored(plain, untyped.json.data.event_id!)).validation_errors).toEqual([
      { field: 'event_type', message: '"*" is not in the project\'s event type catalog' },
    ]);
  });

  it('off: accepts a mismatch and records nothing', async () => {
    const { github } = await projectWith({ mode: 'off', unknown_types: 'allow' });
    const bad = await send(github, { ref: 42 }, 'push');
    expect(bad.status).toBe(200);
    expect((await stored(github, bad.json.data.event_id!)).validation_errors).toEqual([]);
  });

  it('counts the outcomes in hookrail_event_validation_total', async () => {
    const text = await (await fetch(`${ingest.url}/metrics`)).text();
    expect(text).toMatch(
      /hookrail_event_validation_total\{intake="http_source",mode="enforce",outcome="invalid",verdict="refused"[^}]*\} [1-9]/,
    );
    expect(text).toMatch(
      /hookrail_event_validation_total\{intake="http_source",mode="warn",outcome="unknown_type",verdict="warned"[^}]*\} [1-9]/,
    );
  });
});
