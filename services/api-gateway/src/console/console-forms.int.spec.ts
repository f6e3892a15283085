import { TEST_BROKERS, amqpQueue, kafkaTopic, makeEvent, waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';
import {
  confirmDialog,
  gatewayAndChromium,
  pagePerTest,
  screenshot,
  seriousViolations,
  tabTo,
} from '../portal/testing/portal-browser';
import { seedDelivery, seedEndpoint } from '../portal/testing/portal-fixtures';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(120_000);

/**
 * The console's create and edit forms in a real headless Chromium against the real gateway and
 * store: each form's happy path checked through the API afterwards, a field error from the API's
 * 400 shown beside its field, the pickers and time filters, axe on every new page, and the
 * keyboard-only creation of an endpoint and of a subscription.
 */
describe('console forms in a real headless Chromium', () => {
  const h = new GatewayHarness();

  const browser = gatewayAndChromium(h);
  const { page: currentPage, errors } = pagePerTest(browser);

  const shot = (name: string) => screenshot(currentPage(), `console-forms-${name}`);
  const focused = () => currentPage().evaluate('document.activeElement?.id') as Promise<string | undefined>;
  const api = async (pid: string, key: string, path: string) => {
    const res = await h.call('GET', `/v1/projects/${pid}${path}`, { key });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const submit = (form: string) => currentPage().locator(`#${form} button[type="submit"]`).click();

  it('endpoint: created with the keyboard alone (auth, rate limit), edited, its secret rolled', async () => {
    const p = await h.createProject();
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/endpoints`, p.key);
    await currentPage().locator('#empty').waitFor();
    await tabTo(currentPage(), 'a[href$="/endpoints/new"]');
    await currentPage().keyboard.press('Enter');
    await currentPage().getByRole('heading', { name: 'New endpoint', exact: true }).waitFor();
    expect(await seriousViolations(currentPage())).toEqual([]);

    // An empty name is refused before sending, beside the field, which takes the focus.
    await tabTo(currentPage(), '#endpoint-form button[type="submit"]');
    await currentPage().keyboard.press('Enter');
    await currentPage().locator('#endpoint-form-name-error', { hasText: 'is required' }).waitFor();
    expect(await focused()).toBe('endpoint-form-name');
    expect(await currentPage().locator('#endpoint-form-name').getAttribute('aria-invalid')).toBe('true');
    expect(await currentPage().locator('#endpoint-form-name').getAttribute('aria-describedby')).toContain(
      'endpoint-form-name-error',
    );
    await currentPage().keyboard.type('billing');
    await tabTo(currentPage(), '#endpoint-form-url');
    await currentPage().keyboard.type('https://acme.example/billing');
    await tabTo(currentPage(), '#endpoint-form-rate_limit');
    await currentPage().keyboard.type('50');
    await tabTo(currentPage(), '#endpoint-form-rate_limit_duration');
    await currentPage().keyboard.type('60');
    await tabTo(currentPage(), '#endpoint-form-authentication-type');
    await currentPage().keyboard.press('ArrowDown'); // none → API key header
    await tabTo(currentPage(), '#endpoint-form-authentication-api_key-header_name');
    await currentPage().keyboard.type('X-Api-Key');
    await tabTo(currentPage(), '#endpoint-form-authentication-api_key-header_value');
    await currentPage().keyboard.type('key-of-acme');
    await shot('01-new-endpoint');
    expect(await seriousViolations(currentPage())).toEqual([]);
    await tabTo(currentPage(), '#endpoint-form button[type="submit"]');
    await currentPage().keyboard.press('Enter');
    await currentPage().getByRole('heading', { name: 'Endpoint billing', exact: true }).waitFor();

    const id = new URL(currentPage().url()).pathname.split('/').pop()!;
    const created = await api(p.id, p.key, `/endpoints/${id}`);
    expect(created).toMatchObject({
      name: 'billing',
      url: 'https://acme.example/billing',
      rate_limit: 50,
      rate_limit_duration: 60,
      authentication: { type: 'api_key', api_key: { header_name: 'X-Api-Key', header_value: 'key-of-acme' } },
    });

    // Edit: the form starts from the endpoint; what is saved is what the API returns.
    await currentPage().getByRole('link', { name: 'Edit', exact: true }).click();
    await currentPage().getByRole('heading', { name: 'Edit endpoint billing', exact: true }).waitFor();
    expect(
      await currentPage().locator('#endpoint-form-authentication-api_key-header_name').inputValue(),
    ).toBe('X-Api-Key');
    await currentPage().locator('#endpoint-form-description').fill('Invoices of acme');
    await currentPage().locator('#endpoint-form-http_timeout').fill('12');
    await currentPage().locator('#endpoint-form-support_email').fill('ops@acme.example');
    expect(await seriousViolations(currentPage())).toEqual([]);
    await submit('endpoint-form');
    await currentPage().getByRole('heading', { name: 'Endpoint billing', exact: true }).waitFor();
    expect(await api(p.id, p.key, `/endpoints/${id}`)).toMatchObject({
      description: 'Invoices of acme',
      http_timeout: 12,
      support_email: 'ops@acme.example',
      rate_limit: 50,
      authentication: { type: 'api_key' },
    });

    // A timeout the API refuses is refused beside its field before sending.
    await currentPage().getByRole('link', { name: 'Edit', exact: true }).click();
    await currentPage().locator('#endpoint-form-http_timeout').fill('90');
    await submit('endpoint-form');
    await currentPage().locator('#endpoint-form-http_timeout-error', { hasText: 'must be <= 60' }).waitFor();
    await currentPage().goBack();

    // Roll the secret to a given one: the old one stays valid for the chosen time.
    await currentPage().getByRole('heading', { name: 'Endpoint billing', exact: true }).waitFor();
    await currentPage().locator('#roll-secret').fill('a-chosen-secret-123');
    await currentPage().getByRole('button', { name: 'Roll secret' }).click();
    await confirmDialog(currentPage());
    await currentPage().locator('#toast', { hasText: 'Secret rolled' }).waitFor();
    const rolled = await api(p.id, p.key, `/endpoints/${id}`);
    expect(rolled.secrets.map((s: { value: string }) => s.value)).toContain('a-chosen-secret-123');
    expect(errors()).toEqual([]);
  });

  it("endpoint: the API's 400 (https only) shows beside the URL, and nothing is created", async () => {
    const p = await h.createProject('outgoing', { ssl: { enforce_secure_endpoints: true } });
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/endpoints/new`, p.key);
    await currentPage().locator('#endpoint-form-name').fill('plain');
    await currentPage().locator('#endpoint-form-url').fill('http://acme.example/plain');
    await submit('endpoint-form');
    await currentPage().locator('#endpoint-form-url-error', { hasText: 'must use https' }).waitFor();
    expect(await focused()).toBe('endpoint-form-url');
    await shot('02-endpoint-400');
    expect(await seriousViolations(currentPage())).toEqual([]);
    expect((await api(p.id, p.key, '/endpoints')).content).toEqual([]);
    // corrected, it is created
    await currentPage().locator('#endpoint-form-url').fill('https://acme.example/plain');
    await submit('endpoint-form');
    await currentPage().getByRole('heading', { name: 'Endpoint plain', exact: true }).waitFor();

    // OAuth2: the settings being edited are tried with the API's OAuth2 test (a real token request).
    await currentPage().getByRole('link', { name: 'Edit', exact: true }).click();
    await currentPage().locator('#endpoint-form-authentication-type').selectOption('oauth2');
    await currentPage().locator('#endpoint-form-authentication-oauth2-url').fill('https://127.0.0.1:1/token');
    await currentPage().locator('#endpoint-form-authentication-oauth2-client_id').fill('acme');
    await currentPage().locator('#endpoint-form-authentication-oauth2-client_secret').fill('acme-secret');
    await currentPage().locator('#oauth2-test').click();
    await currentPage().locator('#oauth2-test-result', { hasText: /\S/ }).waitFor();
    expect(await currentPage().locator('#oauth2-test-result').innerText()).not.toMatch(/^Token received/);
    expect(await seriousViolations(currentPage())).toEqual([]);
    // saved, the endpoint authenticates with it
    await submit('endpoint-form');
    await currentPage().getByRole('heading', { name: 'Endpoint plain', exact: true }).waitFor();
    const [plain] = (await api(p.id, p.key, '/endpoints')).content;
    expect(plain.authentication).toMatchObject({
      type: 'oauth2',
      oauth2: { url: 'https://127.0.0.1:1/token', client_id: 'acme', authentication_type: 'shared_secret' },
    });
  });

  it('endpoint: created disabled, its owner and authentication emptied from the form, activated by unticking', async () => {
    const p = await h.createProject();
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/endpoints/new`, p.key);
    await currentPage().locator('#endpoint-form-name').fill('ledger');
    await currentPage().locator('#endpoint-form-url').fill('https://acme.example/ledger');
    await currentPage().locator('#endpoint-form-owner_id').fill('acme');
    await currentPage().locator('#endpoint-form-support_email').fill('ops@acme.example');
    await currentPage().locator('#endpoint-form-authentication-type').selectOption('basic_auth');
    await currentPage().locator('#endpoint-form-authentication-basic_auth-username').fill('acme');
    await currentPage().locator('#endpoint-form-authentication-basic_auth-password').fill('s3cret');
    await currentPage().locator('#endpoint-form-is_disabled').check();
    expect(await seriousViolations(currentPage())).toEqual([]);
    await submit('endpoint-form');
    await currentPage().getByRole('heading', { name: 'Endpoint ledger', exact: true }).waitFor();
    const id = new URL(currentPage().url()).pathname.split('/').pop()!;
    expect(await api(p.id, p.key, `/endpoints/${id}`)).toMatchObject({
      owner_id: 'acme',
      status: 'inactive',
      is_disabled: true,
      authentication: { type: 'basic_auth', basic_auth: { username: 'acme' } },
    });
    // an inactive endpoint offers Activate, not Pause
    await currentPage().getByRole('button', { name: 'Activate', exact: true }).waitFor();

    // A field error first: a half-filled authentication names its missing member.
    await currentPage().getByRole('link', { name: 'Edit', exact: true }).click();
    await currentPage().getByRole('heading', { name: 'Edit endpoint ledger', exact: true }).waitFor();
    expect(await currentPage().locator('#endpoint-form-is_disabled').isChecked()).toBe(true);
    await currentPage().locator('#endpoint-form-authentication-basic_auth-password').fill('');
    await submit('endpoint-form');
    await currentPage()
      .locator('#endpoint-form-authentication-basic_auth-password-error', { hasText: 'is required' })
      .waitFor();

    // Emptied: no owner, no authentication, no support email; unticked: active again.
    await currentPage().locator('#endpoint-form-owner_id').fill('');
    await currentPage().locator('#endpoint-form-support_email').fill('');
    await currentPage().locator('#endpoint-form-authentication-type').selectOption('');
    await currentPage().locator('#endpoint-form-is_disabled').uncheck();
    expect(await seriousViolations(currentPage())).toEqual([]);
    await submit('endpoint-form');
    await currentPage().getByRole('heading', { name: 'Endpoint ledger', exact: true }).waitFor();
    await currentPage().getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect(await api(p.id, p.key, `/endpoints/${id}`)).toMatchObject({
      owner_id: null,
      support_email: null,
      authentication: null,
      status: 'active',
      is_disabled: false,
    });

    // Ticked again on an edit: inactive, with the API's reason on the page.
    await currentPage().getByRole('link', { name: 'Edit', exact: true }).click();
    await currentPage().locator('#endpoint-form-is_disabled').check();
    await submit('endpoint-form');
    await currentPage().getByRole('button', { name: 'Activate', exact: true }).waitFor();
    expect(await api(p.id, p.key, `/endpoints/${id}`)).toMatchObject({ status: 'inactive', owner_id: null });
    expect(errors()).toEqual([]);
  });

  it('source: an HTTP source with an HMAC verifier and a tested body function; a Kafka source after its 400 beside the topic', async () => {
    const p = await h.createProject('incoming');
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/sources`, p.key);
    await currentPage().getByRole('link', { name: 'New source' }).click();
    await currentPage().getByRole('heading', { name: 'New source', exact: true }).waitFor();
    await currentPage().locator('#source-form-name').fill('shop-hooks');
    await currentPage().locator('#source-form-verifier-type').selectOption('hmac');
    await currentPage().locator('#source-form-verifier-hmac-header').fill('X-Shop-Signature');
    await currentPage().locator('#source-form-verifier-hmac-encoding').selectOption('base64');
    await currentPage().locator('#source-form-verifier-hmac-secret').fill('shop-secret');
    await currentPage().locator('#source-form-idempotency_keys').fill('request.body.id');
    await currentPage()
      .locator('#source-form-body_function')
      .fill('function transform(p) { p.seen = true; return p }');
    await currentPage().locator('#body-function-payload').fill('{"id": 7}');
    await currentPage().locator('#body-function-run').click();
    await currentPage().locator('#body-function-result', { hasText: '"seen": true' }).waitFor();
    expect(await seriousViolations(currentPage())).toEqual([]);
    await shot('03-new-source');
    await submit('source-form');
    await currentPage().getByRole('heading', { name: 'Source shop-hooks', exact: true }).waitFor();
    expect(await currentPage().locator('#ingest-url').innerText()).toMatch(/^https?:\/\//);
    const id = new URL(currentPage().url()).pathname.split('/').pop()!;
    expect(await api(p.id, p.key, `/sources/${id}`)).toMatchObject({
      name: 'shop-hooks',
      type: 'http',
      verifier: {
        type: 'hmac',
        hmac: { header: 'X-Shop-Signature', encoding: 'base64', secret: 'shop-secret' },
      },
      idempotency_keys: ['request.body.id'],
      body_function: 'function transform(p) { p.seen = true; return p }',
      is_disabled: false,
    });

    // Edit: disabled, renamed, its body function emptied (so removed).
    await currentPage().locator('#source-form-name').fill('shop-hooks-2');
    await currentPage().locator('#source-form-is_disabled').check();
    await currentPage().locator('#source-form-body_function').fill('');
    await submit('source-form');
    await currentPage().locator('#toast', { hasText: 'Source saved' }).waitFor();
    expect(await api(p.id, p.key, `/sources/${id}`)).toMatchObject({
      name: 'shop-hooks-2',
      is_disabled: true,
      body_function: null,
      verifier: { type: 'hmac', hmac: { header: 'X-Shop-Signature' } },
    });

    // A broker source whose topic does not exist: the API checks it and names the field.
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/sources/new`);
    await currentPage().locator('#source-form-name').fill('orders-topic');
    await currentPage().locator('#source-form-type').selectOption('pub_sub');
    await currentPage().locator('#source-form-pub_sub-type').selectOption('kafka');
    await currentPage().locator('#source-form-pub_sub-kafka-topic_name').fill(`no-such-topic-${Date.now()}`);
    await submit('source-form');
    // the brokers are required before anything is sent
    await currentPage()
      .locator('#source-form-pub_sub-kafka-brokers-error', { hasText: 'is required' })
      .waitFor();
    await currentPage().locator('#source-form-pub_sub-kafka-brokers').fill('127.0.0.1:9092');
    await submit('source-form');
    await currentPage()
      .locator('#source-form-pub_sub-kafka-topic_name-error', { hasText: 'does not exist' })
      .waitFor({ timeout: 30_000 });
    expect(await focused()).toBe('source-form-pub_sub-kafka-topic_name');
    await shot('04-broker-source-400');
    expect(await seriousViolations(currentPage())).toEqual([]);
    const sources = (await api(p.id, p.key, '/sources')).content as { name: string }[];
    expect(sources.map((s) => s.name)).toEqual(['shop-hooks-2']);

    // With a topic that exists, the broker source is created.
    const topicName = `console-source-${Date.now()}`;
    const topic = await kafkaTopic(topicName);
    try {
      await currentPage().locator('#source-form-pub_sub-kafka-topic_name').fill(topicName);
      await currentPage().locator('#source-form-pub_sub-kafka-consumer_group_id').fill('console-test');
      await submit('source-form');
      await currentPage()
        .getByRole('heading', { name: 'Source orders-topic', exact: true })
        .waitFor({ timeout: 30_000 });
      const broker = (await api(p.id, p.key, '/sources')).content.find(
        (s: { name: string }) => s.name === 'orders-topic',
      );
      expect(broker).toMatchObject({
        type: 'pub_sub',
        pub_sub: {
          type: 'kafka',
          kafka: { brokers: ['127.0.0.1:9092'], topic_name: topicName, consumer_group_id: 'console-test' },
        },
      });
      expect(await currentPage().locator('#source-form-pub_sub-kafka-topic_name').inputValue()).toBe(
        topicName,
      );
      await currentPage().getByRole('button', { name: 'Delete' }).click();
      await confirmDialog(currentPage());
      await currentPage().locator('#toast', { hasText: 'Source deleted' }).waitFor();
    } finally {
      await topic.close();
    }

    // Delete, after a confirmation.
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/sources/${id}`);
    await currentPage().getByRole('button', { name: 'Delete' }).click();
    expect(await confirmDialog(currentPage())).toBe('Delete source shop-hooks-2?');
    await currentPage().locator('#toast', { hasText: 'Source deleted' }).waitFor();
    await currentPage().getByRole('heading', { name: 'Sources', exact: true }).waitFor();
    expect((await api(p.id, p.key, '/sources')).content).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it('subscription: created with the keyboard alone (pickers, filter tested, retry, rate limit); a 400 beside its field', async () => {
    const p = await h.createProject();
    const ep = await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'orders', url: 'https://acme.example/orders' },
    });
    const src = await h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: { name: 'shop', type: 'http' },
    });
    expect([ep.status, src.status]).toEqual([201, 201]);

    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/subscriptions`, p.key);
    await currentPage().locator('#empty').waitFor();
    await tabTo(currentPage(), 'a[href$="/subscriptions/new"]');
    await currentPage().keyboard.press('Enter');
    await currentPage().getByRole('heading', { name: 'New subscription', exact: true }).waitFor();
    // the pickers list the endpoints and sources by name
    await currentPage()
      .locator('#subscription-form-endpoint_id option', { hasText: 'orders' })
      .waitFor({ state: 'attached' });
    await currentPage()
      .locator('#subscription-form-source_id option', { hasText: 'shop' })
      .waitFor({ state: 'attached' });
    expect(await seriousViolations(currentPage())).toEqual([]);

    await tabTo(currentPage(), '#subscription-form-name');
    await currentPage().keyboard.type('paid-orders');
    await tabTo(currentPage(), '#subscription-form-endpoint_id');
    await currentPage().keyboard.press('ArrowDown');
    await tabTo(currentPage(), '#subscription-form-source_id');
    await currentPage().keyboard.press('ArrowDown');
    await tabTo(currentPage(), '#subscription-form-filter_config-event_types');
    await currentPage().keyboard.type('invoice.paid');
    await tabTo(currentPage(), '#subscription-form-filter_config-filter-body');
    await currentPage().keyboard.type('{"amount": {"$gte": 100}}');
    // the filter being written, tested with the routing engine
    await tabTo(currentPage(), '#filter-test-payload');
    await currentPage().keyboard.press('Control+A');
    await currentPage().keyboard.type('{"amount": 250}');
    await tabTo(currentPage(), '#filter-test-run');
    await currentPage().keyboard.press('Enter');
    await currentPage().locator('#filter-test-result', { hasText: 'Match' }).waitFor();
    await currentPage().keyboard.press('Shift+Tab'); // back to the sample headers, then the payload
    await currentPage().keyboard.press('Shift+Tab');
    expect(await focused()).toBe('filter-test-payload');
    await currentPage().keyboard.press('Control+A');
    await currentPage().keyboard.type('{"amount": 20}');
    await tabTo(currentPage(), '#filter-test-run');
    await currentPage().keyboard.press('Enter');
    await currentPage().locator('#filter-test-result', { hasText: 'No match' }).waitFor();
    await tabTo(currentPage(), '#subscription-form-retry_config-type');
    await currentPage().keyboard.press('ArrowDown'); // project default → linear
    await tabTo(currentPage(), '#subscription-form-retry_config-duration');
    await currentPage().keyboard.type('30s');
    await tabTo(currentPage(), '#subscription-form-retry_config-retry_count');
    await currentPage().keyboard.type('5');
    await tabTo(currentPage(), '#subscription-form-rate_limit_config-count');
    await currentPage().keyboard.type('10');
    await tabTo(currentPage(), '#subscription-form-rate_limit_config-duration');
    await currentPage().keyboard.type('60');
    await shot('05-new-subscription');
    await tabTo(currentPage(), '#subscription-form button[type="submit"]');
    await currentPage().keyboard.press('Enter');
    await currentPage().getByRole('heading', { name: 'Subscription paid-orders', exact: true }).waitFor();

    const [sub] = (await api(p.id, p.key, '/subscriptions')).content;
    expect(sub).toMatchObject({
      name: 'paid-orders',
      endpoint_metadata: { uid: ep.body.data.uid },
      source_metadata: { uid: src.body.data.uid },
      filter_config: { event_types: ['invoice.paid'] },
      type: 'api',
      retry_config: { type: 'linear', duration: 30, retry_count: 5 },
      rate_limit_config: { count: 10, duration: 60 },
    });
    const [stored] = await h.store.subscriptions.listByEndpoint(p.id, ep.body.data.uid);
    expect(JSON.parse(stored.filter_config.filter.body_json)).toEqual({ amount: { $gte: 100 } });

    // Edit: a retry interval the API cannot read comes back as its field's error.
    expect(await seriousViolations(currentPage())).toEqual([]);
    await currentPage().locator('#subscription-form-retry_config-duration').fill('soon');
    await submit('subscription-form');
    await currentPage()
      .locator('#subscription-form-retry_config-duration-error', { hasText: 'whole number of seconds' })
      .waitFor();
    expect(await focused()).toBe('subscription-form-retry_config-duration');
    await shot('06-subscription-400');
    await currentPage().locator('#subscription-form-retry_config-duration').fill('2m');
    await currentPage().locator('#subscription-form-name').fill('paid-orders-2');
    expect(await currentPage().locator('#subscription-form-type').inputValue()).toBe('api');
    await currentPage().locator('#subscription-form-type').selectOption('cli');
    // a transform function, tried on a sample with its runner (the delivery sandbox) before saving
    await currentPage()
      .locator('#subscription-form-function')
      .fill('function transform(p) { p.seen = true; return p }');
    await currentPage().locator('#subscription-function-payload').fill('{"amount": 250}');
    await currentPage().locator('#subscription-function-run').click();
    await currentPage().locator('#subscription-function-result', { hasText: '"seen": true' }).waitFor();
    await submit('subscription-form');
    await currentPage().locator('#toast', { hasText: 'Subscription saved' }).waitFor();
    expect(await api(p.id, p.key, `/subscriptions/${sub.uid}`)).toMatchObject({
      type: 'cli',
      function: 'function transform(p) { p.seen = true; return p }',
      retry_config: { duration: 120 },
    });
    // Emptied on the form: no source, no function, the project's retry strategy, no rate limit.
    await currentPage().locator('#subscription-form-source_id').selectOption('');
    await currentPage().locator('#subscription-form-function').fill('');
    await currentPage().locator('#subscription-form-retry_config-type').selectOption('');
    await currentPage().locator('#subscription-form-retry_config-duration').fill('');
    await currentPage().locator('#subscription-form-retry_config-retry_count').fill('');
    await currentPage().locator('#subscription-form-rate_limit_config-count').fill('');
    await currentPage().locator('#subscription-form-rate_limit_config-duration').fill('');
    await submit('subscription-form');
    await waitFor('the emptied settings saved', async () => {
      const saved = await api(p.id, p.key, `/subscriptions/${sub.uid}`);
      return saved.source_metadata === null ? saved : undefined;
    });
    expect(await api(p.id, p.key, `/subscriptions/${sub.uid}`)).toMatchObject({
      name: 'paid-orders-2',
      source_metadata: null,
      function: null,
      retry_config: null,
      rate_limit_config: null,
      endpoint_metadata: { uid: ep.body.data.uid },
    });
    // the list links to it by name
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/subscriptions`);
    await currentPage().locator('#subscriptions a', { hasText: 'paid-orders-2' }).waitFor();
    expect(errors()).toEqual([]);
  });

  it('project: created by the admin (its key shown once), settings edited, API keys issued, regenerated, revoked', async () => {
    await openSignedIn(currentPage(), `${h.gateway.url}/console`, ADMIN_KEY);
    const name = `shop-${Date.now()}`;
    await currentPage().locator('#project-new-form-name').fill(name);
    await currentPage().locator('#project-new-form-type').selectOption('outgoing');
    expect(await seriousViolations(currentPage())).toEqual([]);
    await submit('project-new-form');
    await currentPage().locator('#issued-key').waitFor();
    await currentPage().locator('#issued-key').getByRole('button', { name: 'Reveal' }).click();
    const firstKey = await currentPage().locator('#issued-key code').innerText();
    expect(firstKey).toMatch(/^hr_/);
    await currentPage()
      .getByRole('link', { name: `Open project ${name}` })
      .click();
    await currentPage().locator('#side').waitFor();
    const pid = new URL(currentPage().url()).pathname.split('/').pop()!;
    // the key shown works
    expect((await api(pid, firstKey, '')).name).toBe(name);

    await currentPage().getByRole('link', { name: 'Settings and API keys' }).click();
    await currentPage().locator('#project-form').waitFor();
    expect(await seriousViolations(currentPage())).toEqual([]);
    await currentPage().locator('#project-form-config-retention_seconds').fill('60');
    await submit('project-form');
    await currentPage()
      .locator('#project-form-config-retention_seconds-error', { hasText: 'must be >= 3600' })
      .waitFor();
    await currentPage().locator('#project-form-config-retention_seconds').fill('86400');
    await currentPage().getByRole('button', { name: 'Add a signature version' }).click();
    await currentPage().locator('#project-form-config-signature-versions-1-hash').selectOption('SHA512');
    await currentPage().locator('#project-form-config-signature-versions-1-encoding').selectOption('base64');
    await currentPage().locator('#project-form-config-meta_event-is_enabled').check();
    await currentPage().locator('#project-form-config-meta_event-url').fill('https://acme.example/meta');
    await currentPage().getByLabel('endpoint.created').check();
    await shot('07-settings');
    await submit('project-form');
    await currentPage().locator('#toast', { hasText: 'Settings saved' }).waitFor();
    const saved = await api(pid, firstKey, '');
    expect(saved.config).toMatchObject({
      retention_seconds: 86400,
      signature: {
        versions: [
          { hash: 'SHA256', encoding: 'hex' },
          { hash: 'SHA512', encoding: 'base64' },
        ],
      },
      meta_event: { is_enabled: true, url: 'https://acme.example/meta', event_type: ['endpoint.created'] },
    });

    // API keys: issue one, regenerate it (a new key, the old one revoked), revoke it.
    const keys = async () => (await api(pid, firstKey, '/keys')).content as { uid: string; name: string }[];
    await currentPage().locator('#key-form-name').fill('ci');
    await submit('key-form');
    await currentPage().locator('#issued-key', { hasText: 'ci' }).waitFor();
    const ci = (await keys()).find((k) => k.name === 'ci')!;
    await currentPage()
      .locator(`#api-keys tr[data-id="${ci.uid}"]`)
      .getByRole('button', { name: 'Regenerate' })
      .click();
    expect(await confirmDialog(currentPage())).toContain('Regenerate key ci?');
    await currentPage().locator('#toast', { hasText: 'Key regenerated' }).waitFor();
    const after = (await keys()).filter((k) => k.name === 'ci');
    expect(after).toHaveLength(1);
    expect(after[0].uid).not.toBe(ci.uid);
    // the list shows the new key in place of the old one
    await currentPage().locator(`#api-keys tr[data-id="${ci.uid}"]`).waitFor({ state: 'detached' });
    await currentPage()
      .locator(`#api-keys tr[data-id="${after[0].uid}"]`)
      .getByRole('button', { name: 'Revoke' })
      .click();
    await confirmDialog(currentPage());
    await currentPage().locator('#toast', { hasText: 'Key revoked' }).waitFor();
    expect((await keys()).filter((k) => k.name === 'ci')).toEqual([]);
    expect(await seriousViolations(currentPage())).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it('send an event: no endpoint picked is the API’s field error; a test event to a picked endpoint', async () => {
    const p = await h.createProject();
    const ep = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    const events = await h.collect('events');
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/events/new`, p.key);
    await currentPage()
      .locator('#event-form-endpoint_id option', { hasText: 'billing' })
      .waitFor({ state: 'attached' });
    expect(await seriousViolations(currentPage())).toEqual([]);
    await submit('event-form');
    await currentPage().locator('#event-form-endpoint_id-error', { hasText: 'is required' }).waitFor();
    await currentPage().locator('#event-form-data').fill('{"not json');
    await currentPage().locator('#event-form-endpoint_id').selectOption({ label: 'billing' });
    await submit('event-form');
    await currentPage().locator('#event-form-data-error', { hasText: 'is not valid JSON' }).waitFor();
    await currentPage().locator('#event-form-data').fill('{"n": 1}');
    await currentPage().locator('#event-form-event_type').fill('invoice.paid');
    await submit('event-form');
    // (no router runs here: the event is on Kafka, and its page waits for it to be stored)
    await currentPage().locator('#event-pending').waitFor();
    const eventId = new URL(currentPage().url()).pathname.split('/').pop()!;
    const message = await waitFor('the event on Kafka', () => events.find((m) => m.event_id === eventId));
    expect(message).toMatchObject({
      project_id: p.id,
      event_type: 'invoice.paid',
      raw: '{"n":1}',
      target: { mode: 'single', endpoint_id: ep._id },
    });
    expect(await seriousViolations(currentPage())).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it('pickers and time filters: names in the selects, times picked and sent as ISO, search, the latency column', async () => {
    const p = await h.createProject();
    const billing = await seedEndpoint(h.store, p.id, 'acme', 'billing', 'https://acme.example/billing');
    const shipping = await seedEndpoint(h.store, p.id, 'acme', 'shipping', 'https://acme.example/shipping');
    const a = await seedDelivery(h.store, p.id, billing._id, 'Failure');
    const b = await seedDelivery(h.store, p.id, shipping._id, 'Failure');
    const shop = await h.call('POST', `/v1/projects/${p.id}/sources`, {
      key: p.key,
      body: { name: 'shop', type: 'http' },
    });
    const fromShop = await makeEvent(h.store, p.id, {
      source_id: shop.body.data.uid,
      event_type: 'order.placed',
    });
    const sub = await h.call('POST', `/v1/projects/${p.id}/subscriptions`, {
      key: p.key,
      body: { name: 'billing-all', endpoint_id: billing._id },
    });
    expect(sub.status).toBe(201);

    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/deliveries`, p.key);
    await currentPage().locator(`tr[data-id="${b.delivery._id}"]`).waitFor();
    const endpointSelect = currentPage().locator('form.filters select[name="endpoint_id"]');
    await endpointSelect.locator('option', { hasText: 'shipping' }).waitFor({ state: 'attached' });
    expect(await endpointSelect.locator('option').allInnerTexts()).toEqual(
      expect.arrayContaining(['billing', 'shipping']),
    );
    await currentPage()
      .locator('form.filters select[name="subscription_id"] option', { hasText: 'billing-all' })
      .waitFor({ state: 'attached' });
    await endpointSelect.selectOption({ label: 'billing' });
    await currentPage().getByRole('button', { name: 'Apply' }).click();
    await currentPage().waitForURL(`**endpoint_id=${billing._id}**`);
    await currentPage().locator(`tr[data-id="${b.delivery._id}"]`).waitFor({ state: 'detached' });
    expect(await currentPage().locator(`tr[data-id="${a.delivery._id}"]`).count()).toBe(1);
    expect(await endpointSelect.inputValue()).toBe(billing._id);
    // the rows name the endpoint, not its id
    const deliveryRow = await currentPage().locator(`tr[data-id="${a.delivery._id}"]`).innerText();
    expect(deliveryRow).toContain('billing');
    expect(deliveryRow).not.toContain(billing._id);

    // A time picked in the browser's local time goes to the URL (and the API) as ISO.
    const later = new Date(Date.now() + 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T${pad(later.getHours())}:${pad(later.getMinutes())}`;
    const from = currentPage().locator('form.filters input[name="start_date"]');
    expect(await from.getAttribute('type')).toBe('datetime-local');
    await from.fill(local);
    await currentPage().getByRole('button', { name: 'Apply' }).click();
    await currentPage().locator('#empty', { hasText: 'Nothing matches these filters' }).waitFor();
    const iso = new URL(currentPage().url()).searchParams.get('start_date')!;
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
    expect(Math.abs(Date.parse(iso) - later.getTime())).toBeLessThan(60_000);
    expect(await from.inputValue()).toBe(local); // shown back in local time
    await shot('08-deliveries-filters');
    expect(await seriousViolations(currentPage())).toEqual([]);

    // An attempt's latency, as a column.
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/deliveries/${a.delivery._id}`);
    await currentPage().locator('#attempts').waitFor();
    await currentPage().getByRole('link', { name: 'endpoint billing' }).waitFor(); // the endpoint by name
    expect((await currentPage().locator('#attempts thead').innerText()).toLowerCase()).toContain('latency');
    expect(await currentPage().locator('#attempts tbody td').last().innerText()).toBe('12 ms');

    // Events: the source and endpoint pickers and the payload search.
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/events`);
    await currentPage()
      .locator('form.filters select[name="source_id"] option', { hasText: 'shop' })
      .waitFor({ state: 'attached' });
    expect(await currentPage().locator('form.filters input[name="query"]').getAttribute('type')).toBe(
      'search',
    );
    expect(await currentPage().locator('form.filters input[name="end_date"]').getAttribute('type')).toBe(
      'datetime-local',
    );
    // an event's row names its source, not its id
    const eventRow = currentPage().locator('tbody tr', { hasText: 'order.placed' });
    await eventRow.waitFor();
    expect(await eventRow.innerText()).toContain('shop');
    expect(await eventRow.innerText()).not.toContain(shop.body.data.uid);
    expect(fromShop.source_id).toBe(shop.body.data.uid);
    expect(await seriousViolations(currentPage())).toEqual([]);

    // Endpoints: search by name.
    await currentPage().goto(`${h.gateway.url}/console/projects/${p.id}/endpoints`);
    await currentPage().locator('form.filters input[name="q"]').fill('ship');
    await currentPage().getByRole('button', { name: 'Apply' }).click();
    await currentPage().locator('#endpoints tbody tr').first().waitFor();
    await currentPage().waitForURL('**q=ship**');
    await currentPage().locator(`#endpoints tr[data-id="${billing._id}"]`).waitFor({ state: 'detached' });
    expect(await currentPage().locator('#endpoints tbody tr').count()).toBe(1);
    expect(errors()).toEqual([]);
  });

  it('portal link: created from the form (owner required before sending), listed with its URL', async () => {
    const p = await h.createProject();
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/portal-links`, p.key);
    await currentPage().locator('#portal-link-form-name').fill('acme portal');
    await submit('portal-link-form');
    await currentPage().locator('#portal-link-form-owner_id-error', { hasText: 'is required' }).waitFor();
    await currentPage().locator('#portal-link-form-owner_id').fill('acme');
    await currentPage().locator('#portal-link-form-can_manage_endpoint').check();
    await submit('portal-link-form');
    await currentPage().locator('#toast', { hasText: 'Portal link created' }).waitFor();
    await currentPage().locator('#portal-links tbody tr', { hasText: 'acme portal' }).waitFor();
    expect(await seriousViolations(currentPage())).toEqual([]);
    const [link] = (await api(p.id, p.key, '/portal-links')).content;
    expect(link).toMatchObject({ name: 'acme portal', owner_id: 'acme', can_manage_endpoint: true });
    expect(errors()).toEqual([]);
  });

  it('source: a RabbitMQ source with its credentials and exchange binding, then edited', async () => {
    const p = await h.createProject('incoming');
    const queue = `console-amqp-${Date.now()}`;
    const exchange = `${queue}-x`;
    const broker = await amqpQueue(queue, { exchange });
    try {
      await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${p.id}/sources/new`, p.key);
      await currentPage().locator('#source-form-name').fill('orders-queue');
      await currentPage().locator('#source-form-type').selectOption('pub_sub');
      await currentPage().locator('#source-form-pub_sub-type').selectOption('amqp');
      await currentPage().locator('#source-form-pub_sub-amqp-host').fill(TEST_BROKERS.amqpHost);
      await currentPage().locator('#source-form-pub_sub-amqp-port').fill(TEST_BROKERS.amqpPort);
      await currentPage().locator('#source-form-pub_sub-amqp-queue').fill(queue);
      await currentPage().locator('#source-form-pub_sub-amqp-auth-user').fill(TEST_BROKERS.amqpUser);
      await currentPage().locator('#source-form-pub_sub-amqp-auth-password').fill(TEST_BROKERS.amqpPassword);
      await currentPage().locator('#source-form-pub_sub-amqp-bindExchange-exchange').fill(exchange);
      await currentPage().locator('#source-form-pub_sub-amqp-bindExchange-routingKey').fill('orders');
      expect(await seriousViolations(currentPage())).toEqual([]);
      await submit('source-form');
      await currentPage()
        .getByRole('heading', { name: 'Source orders-queue', exact: true })
        .waitFor({ timeout: 30_000 });
      const id = new URL(currentPage().url()).pathname.split('/').pop()!;
      expect(await api(p.id, p.key, `/sources/${id}`)).toMatchObject({
        type: 'pub_sub',
        pub_sub: {
          type: 'amqp',
          amqp: {
            host: TEST_BROKERS.amqpHost,
            port: TEST_BROKERS.amqpPort,
            queue,
            auth: { user: TEST_BROKERS.amqpUser },
            bindedExchange: exchange,
            routingKey: 'orders',
          },
        },
      });
      // edited: the form starts from the stored settings
      expect(
        await currentPage().locator('#source-form-pub_sub-amqp-bindExchange-exchange').inputValue(),
      ).toBe(exchange);
      await currentPage().locator('#source-form-pub_sub-workers').fill('2');
      await submit('source-form');
      await currentPage().locator('#toast', { hasText: 'Source saved' }).waitFor({ timeout: 30_000 });
      expect((await api(p.id, p.key, `/sources/${id}`)).pub_sub).toMatchObject({ type: 'amqp', workers: 2 });
      expect(errors()).toEqual([]);
    } finally {
      await broker.close();
    }
  });
});
