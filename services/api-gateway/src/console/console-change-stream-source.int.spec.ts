import type { RunningService } from '@hookrail/runtime';
import { startTestService, testConfig, waitFor } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../dispatcher/src/service';
import { definition as sourceConsumer } from '../../../source-consumer/src/service';
import { USER_MONGODB_URL, userDatabase } from '../../../source-consumer/src/testing/user-database';
import {
  USER_POSTGRES_URL,
  userPostgres,
  type UserPostgres,
} from '../../../source-consumer/src/testing/user-postgres';
import { GatewayHarness } from '../testing/gateway-harness';
import {
  confirmDialog,
  gatewayAndChromium,
  pagePerTest,
  screenshot,
  seriousViolations,
} from '../portal/testing/portal-browser';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(120_000);

// The gateway seals the connection string with it, the source-consumer opens it.
const ENV = { HOOKRAIL_ENCRYPTION_KEY: 'console-cdc-test-key', HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true' };

/**
 * The console's `db_change_stream` form in a real headless Chromium against the local replica-set
 * SecantusDB (27018) and PostgreSQL (5433): a source created from the form streams a document
 * inserted or a row committed there into the console's events list (through a real source-consumer
 * and dispatcher); a missing publication or a `$match` the database
 * refuses is named beside its field with nothing created; the edit form keeps the stored connection
 * string.
 */
describe('console: database change stream sources', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h, ENV);
  const { page: currentPage, errors } = pagePerTest(browser);
  const services: RunningService[] = [];
  let user: Awaited<ReturnType<typeof userDatabase>>;
  let pg: UserPostgres;
  beforeAll(async () => {
    user = await userDatabase(['orders']);
    pg = await userPostgres('CREATE TABLE orders (id text PRIMARY KEY, total int)');
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix, ...ENV };
    services.push(await startTestService(dispatcher(testConfig('dispatcher', env))));
    services.push(await startTestService(sourceConsumer(testConfig('source-consumer', env))));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await user.drop();
    await pg.drop();
  });

  const page = () => currentPage();
  const submit = () => page().locator('#source-form button[type="submit"]').click();
  const sources = async (p: { id: string; key: string }) =>
    (await h.call('GET', `/v1/projects/${p.id}/sources`, { key: p.key })).body.data.content as {
      uid: string;
      db_change_stream: Record<string, unknown> | null;
    }[];

  /** Opens the new source form signed in, with the change stream type and the database filled. */
  async function newStreamSource(p: { id: string; key: string }, name: string) {
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/sources/new`, p.key);
    await page().getByRole('heading', { name: 'New source', exact: true }).waitFor();
    await page().locator('#source-form-name').fill(name);
    await page().locator('#source-form-type').selectOption('db_change_stream');
    await page().locator('#source-form-db_change_stream-type').selectOption('mongodb');
    await page().locator('#source-form-db_change_stream-database').fill(user.name);
    await page().locator('#source-form-db_change_stream-collections').fill('orders');
  }

  it('creates a MongoDB change stream from the form; an inserted document arrives in the events list', async () => {
    const p = await h.createProject('incoming');
    await newStreamSource(p, 'orders-cdc');
    // the connection string is required before sending
    await submit();
    await page()
      .locator('#source-form-db_change_stream-connection_string-error', { hasText: 'is required' })
      .waitFor();
    await page().locator('#source-form-db_change_stream-connection_string').fill(USER_MONGODB_URL);
    await page().locator('#source-form-db_change_stream-operations-delete').uncheck();
    await page().locator('#source-form-db_change_stream-event_type_template').fill('shop.{operation}');
    expect(await seriousViolations(page())).toEqual([]);
    await submit();
    await page()
      .getByRole('heading', { name: 'Source orders-cdc', exact: true })
      .waitFor({ timeout: 30_000 });
    const [created] = await sources(p);
    expect(created.db_change_stream).toMatchObject({
      type: 'mongodb',
      database: user.name,
      collections: ['orders'],
      operations: ['insert', 'update', 'replace'],
      event_type_template: 'shop.{operation}',
    });
    // the edit form: never the connection string, the stream's state once the consumer runs it
    expect(await page().locator('#source-form-db_change_stream-connection_string').inputValue()).toBe('');
    await waitFor('the consumer running the stream', async () => {
      await page().reload();
      await page().locator('#stream-state').waitFor();
      return (await page().locator('#stream-state', { hasText: 'Running' }).count()) > 0 ? true : undefined;
    });
    await screenshot(page(), 'console-cdc-source-running');
    expect(await seriousViolations(page())).toEqual([]);

    await user.db.collection<{ _id: string; total: number }>('orders').insertOne({ _id: 'o-1', total: 5 });
    await page().goto(`${h.gateway.url}/console/projects/${p.id}/events`);
    await waitFor('the change in the events list', async () => {
      await page().reload();
      await page().locator('#events, #empty').first().waitFor();
      const row = page().locator('#events tbody tr', { hasText: 'shop.insert' });
      return (await row.count()) > 0 ? true : undefined;
    });
    expect(await page().locator('#events tbody tr').first().innerText()).toContain('orders-cdc');
    await screenshot(page(), 'console-cdc-source-event');

    // saving the edit form without typing a connection string keeps the stored one
    await page().goto(`${h.gateway.url}/console/projects/${p.id}/sources/${created.uid}`);
    await page().locator('#source-form-db_change_stream-operations-delete').check();
    await submit();
    await page().getByText('Source saved').waitFor({ timeout: 30_000 });
    expect((await sources(p))[0].db_change_stream).toMatchObject({
      operations: ['insert', 'update', 'replace', 'delete'],
    });
    expect(errors()).toEqual([]);
  });

  it('creates a PostgreSQL change stream from the form: a missing publication is named, then created; a row arrives', async () => {
    const p = await h.createProject('incoming');
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/sources/new`, p.key);
    await page().locator('#source-form-name').fill('orders-pg');
    await page().locator('#source-form-type').selectOption('db_change_stream');
    await page().locator('#source-form-db_change_stream-type').selectOption('postgres');
    // the kind's own fields and operations only
    expect(await page().locator('#source-form-db_change_stream-collections').count()).toBe(0);
    expect(await page().locator('#source-form-db_change_stream-operations-replace').count()).toBe(0);
    await page().locator('#source-form-db_change_stream-connection_string').fill(USER_POSTGRES_URL);
    await page().locator('#source-form-db_change_stream-database').fill(pg.name);
    await page().locator('#source-form-db_change_stream-tables').fill('orders');
    await page().locator('#source-form-db_change_stream-publication').fill('hookrail');
    await page().locator('#source-form-db_change_stream-slot').fill(`${pg.name}_slot`);
    await submit();
    await page()
      .locator('#source-form-db_change_stream-publication-error', { hasText: 'no publication "hookrail"' })
      .waitFor({ timeout: 30_000 });
    expect(await sources(p)).toEqual([]);
    await page().locator('#source-form-db_change_stream-create_if_missing').check();
    expect(await seriousViolations(page())).toEqual([]);
    await submit();
    await page().getByRole('heading', { name: 'Source orders-pg', exact: true }).waitFor({ timeout: 30_000 });
    expect((await sources(p))[0].db_change_stream).toMatchObject({
      type: 'postgres',
      database: pg.name,
      tables: ['orders'],
      publication: 'hookrail',
      operations: ['insert', 'update', 'delete', 'truncate'],
      create_if_missing: true,
    });
    await waitFor('the consumer running the stream', async () => {
      await page().reload();
      await page().locator('#stream-state').waitFor();
      return (await page().locator('#stream-state', { hasText: 'Running' }).count()) > 0 ? true : undefined;
    });
    await screenshot(page(), 'console-cdc-postgres-source');

    await pg.sql("INSERT INTO orders VALUES ('o-1', 5)");
    await page().goto(`${h.gateway.url}/console/projects/${p.id}/events`);
    await waitFor('the row in the events list', async () => {
      await page().reload();
      await page().locator('#events, #empty').first().waitFor();
      const row = page().locator('#events tbody tr', { hasText: 'orders.insert' });
      return (await row.count()) > 0 ? true : undefined;
    });
    expect(errors()).toEqual([]);
  });

  it('shows the database refusing a $match beside the field, and refuses JSON that does not parse', async () => {
    const p = await h.createProject('incoming');
    await newStreamSource(p, 'bad-match');
    await page().locator('#source-form-db_change_stream-connection_string').fill(USER_MONGODB_URL);
    await page().locator('#source-form-db_change_stream-match').fill('{ "total": ');
    await submit();
    await page()
      .locator('#source-form-db_change_stream-match-error', { hasText: 'is not valid JSON' })
      .waitFor();
    await page().locator('#source-form-db_change_stream-match').fill('{ "$nope": 1 }');
    await submit();
    await page()
      .locator('#source-form-db_change_stream-match-error', { hasText: 'refused the change stream' })
      .waitFor({ timeout: 30_000 });
    expect(await page().evaluate('document.activeElement?.id')).toBe('source-form-db_change_stream-match');
    await screenshot(page(), 'console-cdc-source-bad-match');
    expect(await seriousViolations(page())).toEqual([]);
    expect(await sources(p)).toEqual([]);
    expect(errors()).toEqual([]);
  });
});

/** No source-consumer runs here: the lost state stays as written, as the consumer would record it. */
describe('console: a change stream whose resume point is lost', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h, ENV);
  const { page: currentPage, errors } = pagePerTest(browser);
  let user: Awaited<ReturnType<typeof userDatabase>>;
  beforeAll(async () => (user = await userDatabase(['orders'])));
  afterAll(() => user.drop());
  const page = () => currentPage();

  // The messages the consumer records (libs/change-streams: stream.ts, postgres/pg-stream.ts); the
  // source-consumer's own tests make each happen for real.
  it.each([
    [
      'mongodb',
      "resume point lost (the server's history no longer holds it): Resume of change stream was not possible",
    ],
    [
      'postgres',
      'the replication slot "s1" no longer exists (dropped?): the changes after 0/16B3748 are lost to this source; restart it from now',
    ],
  ])(
    'shows a lost resume point (%s) with the server message and restarts the stream from now',
    async (kind, message) => {
      const p = await h.createProject('incoming');
      const res = await h.call('POST', `/v1/projects/${p.id}/sources`, {
        key: p.key,
        body: {
          name: 'lost-cdc',
          type: 'db_change_stream',
          db_change_stream: { type: 'mongodb', connection_string: USER_MONGODB_URL, database: user.name },
        },
      });
      expect(res.status).toBe(201);
      const id = res.body.data.uid as string;
      await h.store.sourceHealth.report(p.id, id, 'resume_lost', message, 'test');
      await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/sources/${id}`, p.key);
      const state = page().locator('#stream-state');
      await state.getByText('Resume point lost', { exact: true }).waitFor();
      expect(await state.innerText()).toContain(message);
      await screenshot(page(), `console-cdc-source-resume-lost-${kind}`);
      expect(await seriousViolations(page())).toEqual([]);
      await page().locator('#restart-from-now').click();
      expect(await confirmDialog(page())).toContain('Read from now on?');
      await page().getByText('Change stream restarted from now').waitFor();
      const got = await h.call('GET', `/v1/projects/${p.id}/sources/${id}`, { key: p.key });
      expect(Date.parse(got.body.data.db_change_stream.restart_requested_at as string)).toBeGreaterThan(0);
      expect(got.body.data.db_change_stream).toMatchObject({ type: 'mongodb', database: user.name });
      // Another error (the database unreachable a while) is shown as such, without the action,
      // whatever its message says: the state decides, not the text.
      await h.store.sourceHealth.report(p.id, id, 'unreachable', `connect ECONNREFUSED; ${message}`, 'test');
      await page().reload();
      await state.getByText('Error', { exact: true }).waitFor();
      expect(await state.innerText()).toContain('connect ECONNREFUSED');
      expect(await page().locator('#restart-from-now').count()).toBe(0);
      expect(errors()).toEqual([]);
    },
  );

  it('shows how far a running stream is behind, as the consumer recorded it', async () => {
    const p = await h.createProject('incoming');
    const res = await h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: {
        name: 'lagging-cdc',
        type: 'db_change_stream',
        db_change_stream: { type: 'mongodb', connection_string: USER_MONGODB_URL, database: user.name },
      },
    });
    const id = res.body.data.uid as string;
    await h.store.sourceHealth.report(p.id, id, 'consuming', null, 'test');
    await h.store.sourceHealth.reportLag(p.id, id, {
      lag_seconds: 12.4,
      behind_bytes: null,
      behind_changes: 1234,
    });
    await openSignedIn(page(), `${h.gateway.url}/console/projects/${p.id}/sources/${id}`, p.key);
    await page().locator('#stream-state').getByText('Running', { exact: true }).waitFor();
    expect(await page().locator('#stream-lag').innerText()).toBe('Behind: 12 s, 1,234 changes');
    expect(await page().locator('#restart-from-now').count()).toBe(0);
    expect(errors()).toEqual([]);
  });
});
