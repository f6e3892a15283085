import {
  makeDelivery,
  makeEndpoint,
  makeEvent,
  makeSource,
  makeSubscription,
  metaEventDoc,
  portalLinkDoc,
} from '@hookrail/testkit';
import { newId } from '@hookrail/domain';
import { GatewayHarness } from './testing/gateway-harness';

jest.setTimeout(120_000);

/** Routes whose body is validated before the id is looked up get a valid one. */
const VALID_BODIES: Record<string, object> = {
  '/v1/projects/{projectID}/endpoints/{endpointID}/expire_secret': { expiration: 0 },
  '/v1/projects/{projectID}/endpoints/{endpointID}/listen/answers': {
    request_id: 'r1',
    url: 'http://localhost:3000/hooks',
    latency_ms: 1,
  },
  '/v1/projects/{projectID}/endpoints/{endpointID}/blocked-keys/unblock': {
    key: 'endpoint',
    head_delivery_id: 'any',
  },
};

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Project isolation on every route that takes an id: project B's key on project B's path, with
 * the id of one of project A's resources, answers 404 — never A's data, never a change to it.
 * The routes come from the served OpenAPI document, so a new route is covered when it is added.
 */
describe('cross-project access', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it('answers 404 on every id-taking route called with another project', async () => {
    const a = await h.createProject('outgoing');
    const b = await h.createProject('outgoing');
    const endpoint = await makeEndpoint(h.store, a.id, { url: 'http://127.0.0.1:9/a' });
    const source = await makeSource(h.store, a.id);
    const subscription = await makeSubscription(h.store, a.id, { endpoint_id: endpoint._id });
    const event = await makeEvent(h.store, a.id);
    const delivery = await makeDelivery(h.store, a.id, {
      event_id: event._id,
      endpoint_id: endpoint._id,
      status: 'Failure',
    });
    const link = await h.store.portalLinks.insert(a.id, portalLinkDoc(a.id, { owner_id: 'owner-a' }));
    const meta = await h.store.metaEvents.insert(a.id, metaEventDoc(a.id));
    const eventType = await h.store.eventCatalog.insert(a.id, {
      _id: newId(),
      name: 'invoice.paid',
      description: '',
      category: '',
      json_schema_json: null,
      example_json: null,
      deprecated_at: null,
    });
    const ids: Record<string, string> = {
      endpointID: endpoint._id,
      sourceID: source._id,
      subscriptionID: subscription._id,
      eventID: event._id,
      deliveryID: delivery._id,
      eventDeliveryID: delivery._id,
      portalLinkID: link._id,
      metaEventID: meta._id,
      eventTypeId: eventType._id,
      // a project key is hr_<key id>.<secret>
      keyID: a.key.slice(3).split('.')[0],
    };

    const doc = (await (await fetch(`${h.gateway.url}/api/openapi.json`)).json()) as OpenApi;
    // a person ({userID}) is the instance's, not a project's: their roles stay per project
    // (members.int.spec.ts, "keeps a person's role in one project out of another's")
    const routes = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/v1/projects/{projectID}/') && /\{(?!projectID)\w+\}/.test(p))
      .filter(([p]) => !p.includes('{userID}'))
      .flatMap(([p, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path: p })));
    expect(routes.length).toBeGreaterThanOrEqual(20);

    const answers: string[] = [];
    for (const r of routes) {
      const url = r.path.replace('{projectID}', b.id).replace(/\{(\w+)\}/g, (_, name: string) => {
        if (!ids[name]) throw new Error(`no fixture id for {${name}} in ${r.path}: add one to this test`);
        return ids[name];
      });
      const res = await h.call(r.method, url, {
        key: b.key,
        body: ['POST', 'PUT'].includes(r.method) ? (VALID_BODIES[r.path] ?? {}) : undefined,
        unchecked: true,
      });
      if (res.status !== 404) answers.push(`${r.method} ${r.path}: ${res.status}`);
    }
    expect(answers).toEqual([]);

    // nothing of A was changed through B's calls
    const [stillThere] = await h.store.deliveries.findByIds(a.id, [delivery._id]);
    expect(stillThere.status).toBe('Failure');
    expect((await h.store.endpoints.findById(a.id, endpoint._id))?.status).toBe(endpoint.status);
    expect(await h.store.eventCatalog.findById(a.id, eventType._id)).toMatchObject({ deprecated_at: null });
  });
});
