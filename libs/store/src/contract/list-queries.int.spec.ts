import { idFrom, newId, newProjectId, type ProjectId } from '@hookrail/domain';
import type { ApiKeyDoc } from '../api-keys/api-key.schema';
import type { DeliveryDoc, DeliveryStatus } from '../deliveries/delivery.schema';
import type { DeliveryListFilter } from '../deliveries/delivery.repository';
import type { EventDoc, EventStatus } from '../events/event.schema';
import type { EventListFilter } from '../events/event.repository';
import type { Page, PageRequest } from '../base/pagination';
import type { CreatedRange } from '../base/id-range';
import { hasEveryWord, searchWords } from '../base/text-search';
import type { PlanSummary } from '../diagnostics/explain';
import type { ProjectDoc } from '../projects/project.schema';
import {
  deliveryDoc,
  endpointDoc,
  eventDoc,
  metaEventDoc,
  portalLinkDoc,
  sourceDoc,
  subscriptionDoc,
} from '@hookrail/testkit';
import { openContractDb, type ContractDb } from './contract-db';

// One project with 240 events a minute apart and two deliveries each; a second project with the
// same shape must never show up in the first one's lists.
const N = 240;
const T0 = Date.UTC(2026, 0, 1);
const at = (i: number) => new Date(T0 + i * 60_000);
// No `Processing` events: their status is derived from their deliveries when read (event-status.ts).
const EVENT_STATUSES: EventStatus[] = ['Pending', 'Success', 'Failure', 'Retry'];
const DELIVERY_STATUSES: DeliveryStatus[] = [
  'Scheduled',
  'Processing',
  'Success',
  'Retry',
  'Failure',
  'Discarded',
];

const byIdAsc = <T extends { _id: string }>(a: T, b: T) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
const inRange = (id: string, times: Map<string, number>, r?: CreatedRange) => {
  const t = times.get(id)!;
  return (!r?.from || t >= r.from.getTime()) && (!r?.to || t <= r.to.getTime());
};

/** Every page forwards, then back from the last page with the prev cursors: both must give `want`. */
async function expectPages<T extends { _id: string }>(
  fetch: (req: PageRequest) => Promise<Page<T>>,
  want: string[],
  perPage: number,
  sort: 'ASC' | 'DESC',
): Promise<void> {
  const forward: string[] = [];
  let page = await fetch({ perPage, sort, direction: 'next' });
  expect(page.pagination.has_prev_page).toBe(false);
  const pages = [page];
  for (;;) {
    expect(page.content.length).toBeLessThanOrEqual(perPage);
    forward.push(...page.content.map((d) => d._id));
    if (!page.pagination.has_next_page) break;
    page = await fetch({ perPage, sort, direction: 'next', cursor: page.pagination.next_page_cursor });
    expect(page.pagination.has_prev_page).toBe(true);
    pages.push(page);
    expect(pages.length).toBeLessThanOrEqual(want.length + 1);
  }
  expect(forward).toEqual(want);
  // back from the last page
  const backward: string[] = page.content.map((d) => d._id);
  while (page.pagination.has_prev_page && page.content.length > 0) {
    page = await fetch({ perPage, sort, direction: 'prev', cursor: page.pagination.prev_page_cursor });
    expect(page.pagination.has_next_page).toBe(true);
    backward.unshift(...page.content.map((d) => d._id));
  }
  expect(backward).toEqual(want);
}

describe('store contract: list queries (sort, limit, range, cursor)', () => {
  let db: ContractDb;
  const P = newProjectId();
  const Q = newProjectId();
  const E = [newId(), newId(), newId()];
  const S = [newId(), newId()];
  const events: EventDoc[] = [];
  const deliveries: DeliveryDoc[] = [];
  const times = new Map<string, number>();

  function seedEvents(projectId: ProjectId, count: number): EventDoc[] {
    return Array.from({ length: count }, (_, i) => {
      const id = idFrom(`${projectId}/event/${i}`, at(i));
      times.set(id, at(i).getTime());
      return eventDoc(projectId, {
        _id: id,
        source_id: i % 3 === 2 ? null : S[i % 2],
        endpoints: i % 5 === 0 ? [E[i % 3], E[(i + 1) % 3]] : [E[i % 3]],
        idempotency_key: i % 7 === 0 ? `k-${i % 5}` : null,
        event_type: i % 2 ? 'invoice.paid' : 'invoice.created',
        status: EVENT_STATUSES[i % EVENT_STATUSES.length],
        raw: JSON.stringify({ customer: i % 4 === 0 ? 'ACME Corp' : 'Globex', total: i, tier: `t.${i % 3}` }),
        created_at: at(i),
        updated_at: at(i),
      });
    });
  }

  function seedDeliveries(projectId: ProjectId, evs: EventDoc[]): DeliveryDoc[] {
    return evs.flatMap((e, i) =>
      [0, 1].map((k) => {
        const id = idFrom(`${e._id}/sub-${k}`, times.get(e._id)!);
        times.set(id, times.get(e._id)!);
        const status = DELIVERY_STATUSES[(i + k) % DELIVERY_STATUSES.length];
        return deliveryDoc(projectId, {
          _id: id,
          event_id: e._id,
          endpoint_id: E[(i + 2 * k) % 3],
          subscription_id: `sub-${k}`,
          status,
          next_attempt_at: status === 'Scheduled' && i % 4 < 2 ? at(i + 5) : null,
        });
      }),
    );
  }

  // the documents are made now (the test tables below refer to them) and stored before the tests
  events.push(...seedEvents(P, N));
  deliveries.push(...seedDeliveries(P, events));
  const otherEvents = seedEvents(Q, 40);
  const otherDeliveries = seedDeliveries(Q, otherEvents);

  beforeAll(async () => {
    db = await openContractDb('contract-lists');
    await db.store.events.insertManyIfAbsent([...events, ...otherEvents]);
    await db.store.deliveries.insertManyIfAbsent([...deliveries, ...otherDeliveries]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const eventsWhere = (f: EventListFilter) =>
    events
      .filter(
        (e) =>
          (!f.ids || f.ids.includes(e._id)) &&
          (f.sourceId === undefined || e.source_id === f.sourceId) &&
          (!f.sourceIds || f.sourceIds.includes(e.source_id!)) &&
          (f.search === undefined || hasEveryWord(e.raw, searchWords(f.search))) &&
          (!f.endpointIds || e.endpoints.some((x) => f.endpointIds!.includes(x))) &&
          (f.eventType === undefined || e.event_type === f.eventType) &&
          (f.idempotencyKey === undefined || e.idempotency_key === f.idempotencyKey) &&
          (f.status === undefined || e.status === f.status) &&
          inRange(e._id, times, f.createdRange),
      )
      .sort(byIdAsc)
      .map((e) => e._id);

  const deliveriesWhere = (f: DeliveryListFilter) =>
    deliveries
      .filter(
        (d) =>
          (f.eventId === undefined || d.event_id === f.eventId) &&
          (!f.endpointIds || f.endpointIds.includes(d.endpoint_id)) &&
          (f.subscriptionId === undefined || d.subscription_id === f.subscriptionId) &&
          (!f.statuses || f.statuses.includes(d.status)) &&
          inRange(d._id, times, f.createdRange),
      )
      .sort(byIdAsc)
      .map((d) => d._id);

  const eventFilters: [string, EventListFilter][] = [
    ['no filter', {}],
    ['source', { sourceId: S[0] }],
    ['endpoint', { endpointIds: [E[1]] }],
    ['a portal link’s endpoints', { endpointIds: [E[0], E[2]] }],
    ['no endpoints', { endpointIds: [] }],
    ['idempotency key', { idempotencyKey: 'k-2' }],
    ['event type', { eventType: 'invoice.paid' }],
    ['status', { status: 'Failure' }],
    ['time range', { createdRange: { from: at(50), to: at(120) } }],
    ['source from a time', { sourceId: S[1], createdRange: { from: at(100) } }],
    ['several sources', { sourceIds: [S[0], S[1]] }],
    ['no sources', { sourceIds: [] }],
    ['one of several sources, and a source', { sourceIds: [S[0], S[1]], sourceId: S[1] }],
    ['payload search', { search: 'acme' }],
    ['payload search, every word, any case', { search: 'corp ACME "tier":"t.1"' }],
    ['payload search: . is not a pattern', { search: 't.2' }],
    ['payload search, no match', { search: 'initech' }],
    ['payload search and a status', { search: 'globex', status: 'Failure' }],
    [
      'payload search by source in a time range',
      { search: 'acme', sourceIds: [S[0]], createdRange: { from: at(40) } },
    ],
    ['endpoint up to a time', { endpointIds: [E[1]], createdRange: { to: at(60) } }],
  ];

  it.each(eventFilters)(
    'events.page by %s: every page in order, forwards and back, both sorts',
    async (_, f) => {
      const want = eventsWhere(f);
      expect(want.length === 0).toBe(
        f.endpointIds?.length === 0 || f.sourceIds?.length === 0 || f.search === 'initech',
      );
      await expectPages((req) => db.store.events.page(P, f, req), [...want].reverse(), 7, 'DESC');
      await expectPages((req) => db.store.events.page(P, f, req), want, 25, 'ASC');
    },
  );

  it('events.list (batch replay) gives the oldest matching events up to the limit', async () => {
    const ids = events.filter((_, i) => i % 11 === 0).map((e) => e._id);
    for (const f of [
      { ids },
      { sourceId: S[0] },
      { createdRange: { from: at(30), to: at(90) } },
    ] as EventListFilter[])
      expect((await db.store.events.list(P, f, 25)).map((e) => e._id)).toEqual(eventsWhere(f).slice(0, 25));
    expect(await db.store.events.list(P, { ids: events.map((e) => e._id).slice(0, 3) }, 1000)).toHaveLength(
      3,
    );
  });

  it('events.findTargeting finds an event only through an endpoint it targeted', async () => {
    const e = events[3]; // targets E[0]
    expect((await db.store.events.findTargeting(P, e._id, [E[0], E[2]]))?._id).toBe(e._id);
    expect(await db.store.events.findTargeting(P, e._id, [E[1]])).toBeNull();
    expect(await db.store.events.findTargeting(Q, e._id, [E[0]])).toBeNull();
  });

  const deliveryFilters: [string, DeliveryListFilter][] = [
    ['no filter', {}],
    ['event', { eventId: events[17]._id }],
    ['endpoint', { endpointIds: [E[1]] }],
    ['a portal link’s endpoints', { endpointIds: [E[0], E[2]] }],
    ['status', { statuses: ['Failure'] }],
    ['statuses (batch retry)', { statuses: ['Failure', 'Discarded'] }],
    ['endpoint and statuses', { endpointIds: [E[1]], statuses: ['Failure', 'Discarded'] }],
    ['subscription', { subscriptionId: 'sub-1' }],
    ['time range', { createdRange: { from: at(10), to: at(70) } }],
    ['endpoint in a time range', { endpointIds: [E[2]], createdRange: { from: at(200), to: at(230) } }],
  ];

  it.each(deliveryFilters)(
    'deliveries.page by %s: every page in order, forwards and back, both sorts',
    async (_, f) => {
      const want = deliveriesWhere(f);
      expect(want.length).toBeGreaterThan(0);
      await expectPages((req) => db.store.deliveries.page(P, f, req), [...want].reverse(), 9, 'DESC');
      await expectPages((req) => db.store.deliveries.page(P, f, req), want, 40, 'ASC');
    },
  );

  it('deliveries.list (batch retry) gives the oldest matching deliveries up to the limit', async () => {
    const f: DeliveryListFilter = { statuses: ['Failure', 'Discarded'], createdRange: { from: at(20) } };
    expect((await db.store.deliveries.list(P, f, 30)).map((d) => d._id)).toEqual(
      deliveriesWhere(f).slice(0, 30),
    );
  });

  it('deliveries.listByEvents gives every delivery of the events, oldest first', async () => {
    const ids = [events[5]._id, events[6]._id, events[200]._id];
    const want = deliveries.filter((d) => ids.includes(d.event_id)).sort(byIdAsc);
    expect((await db.store.deliveries.listByEvents(P, ids)).map((d) => d._id)).toEqual(
      want.map((d) => d._id),
    );
    expect(await db.store.deliveries.listByEvents(Q, ids)).toEqual([]);
  });

  it('deliveries.listHeld gives an endpoint’s Scheduled deliveries with a next attempt time', async () => {
    const want = deliveries
      .filter((d) => d.endpoint_id === E[1] && d.status === 'Scheduled' && d.next_attempt_at !== null)
      .sort(byIdAsc)
      .map((d) => d._id);
    expect(want.length).toBeGreaterThan(0);
    expect((await db.store.deliveries.listHeld(P, E[1], 1000)).map((d) => d._id)).toEqual(want);
  });

  it('deliveries.countWithStatus counts up to its cap, per project or endpoint', async () => {
    const retrying = deliveries.filter((d) => d.status === 'Retry');
    const endpoint = retrying[0].endpoint_id;
    const ofEndpoint = retrying.filter((d) => d.endpoint_id === endpoint).length;
    expect(ofEndpoint).toBeGreaterThan(3);
    expect(await db.store.deliveries.countWithStatus(P, 'Retry', null, 100_000)).toBe(retrying.length);
    expect(await db.store.deliveries.countWithStatus(P, 'Retry', endpoint, 100_000)).toBe(ofEndpoint);
    expect(await db.store.deliveries.countWithStatus(P, 'Retry', endpoint, 3)).toBe(3);
    expect(await db.store.deliveries.countWithStatus(newProjectId(), 'Retry', endpoint, 100_000)).toBe(0);
  });

  it('deliveries.findToEndpoints finds a delivery only through its endpoint', async () => {
    const d = deliveries[0];
    expect((await db.store.deliveries.findToEndpoints(P, d._id, [d.endpoint_id]))?._id).toBe(d._id);
    expect(
      await db.store.deliveries.findToEndpoints(
        P,
        d._id,
        E.filter((x) => x !== d.endpoint_id),
      ),
    ).toBeNull();
  });

  it('lists the configuration collections by their filters, without deleted or foreign documents', async () => {
    const project = newProjectId();
    const foreign = newProjectId();
    const eps = Array.from({ length: 12 }, (_, i) =>
      endpointDoc(project, {
        name: i % 3 === 1 ? `Orders.v${i}` : `billing-${i}`,
        owner_id: i % 3 === 0 ? 'acme' : null,
        status: i % 4 === 0 ? 'paused' : 'active',
      }),
    );
    const srcs = Array.from({ length: 6 }, (_, i) =>
      sourceDoc(project, { type: i % 2 ? 'http' : 'rest_api', provider: i % 3 === 1 ? 'github' : null }),
    );
    const subs = eps.map((e, i) =>
      subscriptionDoc(project, { endpoint_id: e._id, source_id: srcs[i % 6]._id }),
    );
    const links = Array.from({ length: 5 }, (_, i) =>
      portalLinkDoc(project, { owner_id: i % 2 ? 'acme' : null }),
    );
    const metas = Array.from({ length: 9 }, (_, i) =>
      metaEventDoc(project, {
        event_type: i % 3 ? 'endpoint.updated' : 'endpoint.created',
        status: i % 2 ? 'Success' : 'Failure',
      }),
    );
    for (const e of eps) await db.store.endpoints.insert(project, e);
    for (const s of srcs) await db.store.sources.insert(project, s);
    for (const s of subs) await db.store.subscriptions.insert(project, s);
    for (const l of links) await db.store.portalLinks.insert(project, l);
    for (const m of metas) await db.store.metaEvents.insert(project, m);
    await db.store.endpoints.insert(foreign, endpointDoc(foreign, { owner_id: 'acme' }));
    await db.store.subscriptions.insert(foreign, subscriptionDoc(foreign, { endpoint_id: eps[0]._id }));
    // one of each deleted
    await db.store.endpoints.softDelete(project, eps[11]._id);
    await db.store.subscriptions.softDelete(project, subs[11]._id);
    await db.store.sources.softDelete(project, srcs[5]._id);
    await db.store.portalLinks.softDelete(project, links[4]._id);
    const live = <T extends { _id: string; deleted_at?: unknown }>(docs: T[], deleted: string) =>
      docs.filter((d) => d._id !== deleted);
    const ids = <T extends { _id: string }>(docs: T[]) => [...docs].sort(byIdAsc).map((d) => d._id);
    const desc = (x: string[]) => [...x].reverse();

    const liveEps = live(eps, eps[11]._id);
    await expectPages((r) => db.store.endpoints.page(project, {}, r), desc(ids(liveEps)), 5, 'DESC');
    await expectPages(
      (r) => db.store.endpoints.page(project, { ownerId: 'acme' }, r),
      desc(ids(liveEps.filter((e) => e.owner_id === 'acme'))),
      2,
      'DESC',
    );
    await expectPages(
      (r) => db.store.endpoints.page(project, { status: 'paused' }, r),
      ids(liveEps.filter((e) => e.status === 'paused')),
      2,
      'ASC',
    );
    // name search: any case, the text literal (`.` and `*` are not patterns), deleted ones left out
    const named = (text: string) =>
      ids(liveEps.filter((e) => e.name.toLowerCase().includes(text.toLowerCase())));
    for (const text of ['ORDERS.v', 's.V1', 'orders_v', '.*', 'Billing-1'])
      await expectPages(
        (r) => db.store.endpoints.page(project, { nameContains: text }, r),
        named(text),
        2,
        'ASC',
      );
    expect(named('s.V1')).toEqual(ids([eps[1], eps[10]]));
    expect(named('.*')).toEqual([]);
    await expectPages(
      (r) => db.store.endpoints.page(project, { nameContains: 'orders', ownerId: 'acme' }, r),
      [],
      2,
      'ASC',
    );
    expect((await db.store.endpoints.listByOwner(project, 'acme')).map((e) => e._id)).toEqual(
      ids(liveEps.filter((e) => e.owner_id === 'acme')),
    );

    const liveSrcs = live(srcs, srcs[5]._id);
    await expectPages((r) => db.store.sources.page(project, {}, r), desc(ids(liveSrcs)), 4, 'DESC');
    await expectPages(
      (r) => db.store.sources.page(project, { type: 'http' }, r),
      ids(liveSrcs.filter((s) => s.type === 'http')),
      1,
      'ASC',
    );
    await expectPages(
      (r) => db.store.sources.page(project, { provider: 'github' }, r),
      ids(liveSrcs.filter((s) => s.provider === 'github')),
      1,
      'ASC',
    );
    await expectPages(
      (r) => db.store.sources.page(project, { name: srcs[2].name }, r),
      [srcs[2]._id],
      5,
      'DESC',
    );
    expect((await db.store.sources.findByName(project, srcs[1].name))?._id).toBe(srcs[1]._id);
    expect(await db.store.sources.findByName(project, srcs[5].name)).toBeNull();

    const liveSubs = live(subs, subs[11]._id);
    await expectPages((r) => db.store.subscriptions.page(project, {}, r), desc(ids(liveSubs)), 5, 'DESC');
    await expectPages(
      (r) => db.store.subscriptions.page(project, { sourceId: srcs[0]._id }, r),
      desc(ids(liveSubs.filter((s) => s.source_id === srcs[0]._id))),
      1,
      'DESC',
    );
    await expectPages(
      (r) => db.store.subscriptions.page(project, { endpointIds: [eps[3]._id] }, r),
      [subs[3]._id],
      5,
      'ASC',
    );
    // several endpoints: a deleted subscription and another project's stay out
    await expectPages(
      (r) => db.store.subscriptions.page(project, { endpointIds: [eps[0]._id, eps[5]._id, eps[11]._id] }, r),
      ids([subs[0], subs[5]]),
      1,
      'ASC',
    );
    await expectPages((r) => db.store.subscriptions.page(project, { endpointIds: [] }, r), [], 5, 'ASC');
    await expectPages(
      (r) => db.store.subscriptions.page(project, { name: subs[4].name }, r),
      [subs[4]._id],
      5,
      'ASC',
    );
    expect((await db.store.subscriptions.listAll(project)).map((s) => s._id)).toEqual(ids(liveSubs));
    expect((await db.store.subscriptions.listByEndpoint(project, eps[0]._id)).map((s) => s._id)).toEqual([
      subs[0]._id,
    ]);

    const liveLinks = live(links, links[4]._id);
    await expectPages((r) => db.store.portalLinks.page(project, {}, r), desc(ids(liveLinks)), 3, 'DESC');
    await expectPages(
      (r) => db.store.portalLinks.page(project, { ownerId: 'acme' }, r),
      ids(liveLinks.filter((l) => l.owner_id === 'acme')),
      1,
      'ASC',
    );

    await expectPages((r) => db.store.metaEvents.page(project, {}, r), desc(ids(metas)), 4, 'DESC');
    await expectPages(
      (r) => db.store.metaEvents.page(project, { eventType: 'endpoint.created', status: 'Failure' }, r),
      desc(ids(metas.filter((m) => m.event_type === 'endpoint.created' && m.status === 'Failure'))),
      1,
      'DESC',
    );
  });

  it('lists API keys and projects newest first, without revoked or deleted ones', async () => {
    const project = newProjectId();
    const keys: ApiKeyDoc[] = [];
    for (let i = 0; i < 4; i++)
      keys.push(
        await db.store.apiKeys.insert(project, {
          _id: newId(),
          name: `k${i}`,
          secret_hash: 'h',
          role: 'admin',
          expires_at: null,
          last_used_at: null,
        }),
      );
    await db.store.apiKeys.softDelete(project, keys[1]._id);
    const want = keys.filter((k) => k._id !== keys[1]._id).map((k) => k._id);
    await expectPages((r) => db.store.apiKeys.page(project, r), [...want].reverse(), 2, 'DESC');

    const projects: ProjectDoc[] = [];
    for (let i = 0; i < 3; i++)
      projects.push(
        await db.store.projects.insert({
          _id: newProjectId(),
          name: `p${i}`,
          type: 'outgoing',
          config: {} as never,
        }),
      );
    await db.store.projects.softDelete(projects[0]._id);
    const listed: string[] = [];
    let page = await db.store.projects.page({ perPage: 100, sort: 'ASC' });
    listed.push(...page.content.map((p) => p._id));
    while (page.pagination.has_next_page) {
      page = await db.store.projects.page({
        perPage: 100,
        sort: 'ASC',
        cursor: page.pagination.next_page_cursor,
      });
      listed.push(...page.content.map((p) => p._id));
    }
    expect(listed).toEqual(expect.arrayContaining([projects[1]._id, projects[2]._id]));
    expect(listed).not.toContain(projects[0]._id);
  });

  // The shapes each index in the schemas is declared for (filter fields = an index prefix, so even a
  // simple planner can use it). Filters applied on another index's scan (event type, status of
  // events, subscription of deliveries) and the unscoped lookups by a unique key with a
  // `deleted_at` or `$or` condition are left out: MongoDB plans those on an index too, simpler
  // planners may not (docs/database.md).
  it('plans each indexed list and lookup shape on an index, never a collection scan', async () => {
    const plans: [string, PlanSummary[]][] = [];
    const explain = async (name: string, fn: () => Promise<unknown>) =>
      plans.push([name, (await db.store.explain(fn)).plans]);
    const req: PageRequest = { perPage: 20, sort: 'DESC' };
    const residual = new Set([
      'no endpoints',
      'no sources',
      'event type',
      'status',
      'payload search and a status',
      'subscription',
    ]);
    for (const [name, f] of eventFilters)
      if (!residual.has(name)) await explain(`events.page ${name}`, () => db.store.events.page(P, f, req));
    for (const [name, f] of deliveryFilters)
      if (!residual.has(name))
        await explain(`deliveries.page ${name}`, () => db.store.deliveries.page(P, f, req));
    await explain('deliveries.page by status', () =>
      db.store.deliveries.page(P, { statuses: ['Failure'] }, req),
    );
    await explain('events.list by ids', () =>
      db.store.events.list(P, { ids: [events[1]._id, events[2]._id] }, 1000),
    );
    await explain('events.findById', () => db.store.events.findById(P, events[1]._id));
    await explain('events.findTargeting', () => db.store.events.findTargeting(P, events[3]._id, E));
    await explain('deliveries.listByEvents', () =>
      db.store.deliveries.listByEvents(P, [events[1]._id, events[2]._id]),
    );
    await explain('events.findById (status from its deliveries)', () =>
      db.store.events.findById(P, events[1]._id),
    );
    await explain('deliveries.findById', () => db.store.deliveries.findById(P, deliveries[1]._id));
    await explain('endpoints.page', () => db.store.endpoints.page(P, {}, req));
    await explain('endpoints.page by owner', () => db.store.endpoints.page(P, { ownerId: 'acme' }, req));
    await explain('endpoints.page by name search (scanned)', () =>
      db.store.endpoints.page(P, { nameContains: 'orders' }, req),
    );
    await explain('endpoints.findById', () => db.store.endpoints.findById(P, E[0]));
    await explain('endpoints.findByIds', () => db.store.endpoints.findByIds(P, E));
    await explain('endpoints.listByOwner', () => db.store.endpoints.listByOwner(P, 'acme'));
    await explain('sources.page', () => db.store.sources.page(P, {}, req));
    await explain('sources.findByName', () => db.store.sources.findByName(P, 'orders'));
    await explain('subscriptions.page', () => db.store.subscriptions.page(P, {}, req));
    await explain('subscriptions.page by source', () =>
      db.store.subscriptions.page(P, { sourceId: S[0] }, req),
    );
    await explain('subscriptions.page by several endpoints (scanned)', () =>
      db.store.subscriptions.page(P, { endpointIds: E }, req),
    );
    await explain('subscriptions.listAll', () => db.store.subscriptions.listAll(P));
    await explain('subscriptions.listByEndpoint', () => db.store.subscriptions.listByEndpoint(P, E[0]));
    await explain('portalLinks.page', () => db.store.portalLinks.page(P, {}, req));
    await explain('metaEvents.page', () => db.store.metaEvents.page(P, {}, req));
    await explain('apiKeys.page', () => db.store.apiKeys.page(P, req));
    await explain('projects.page', () => db.store.projects.page(req));
    await explain('schedules.findByShards', () => db.store.schedules.findByShards(['hookrail/0']));
    const scans = plans.flatMap(([name, ps]) =>
      ps.length === 0
        ? [`${name}: no query captured`]
        : ps
            .filter((p) => p.stages.includes('COLLSCAN') || p.indexes.length === 0)
            .map((p) => `${name}: ${p.stages.join(' > ')}`),
    );
    expect(scans).toEqual([]);
  });
});
