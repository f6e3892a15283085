import { randomBytes } from 'node:crypto';
import { TEST_BROKERS, pubsubSubscription, sqsQueue } from '@hookrail/testkit';
import { GatewayHarness } from '../testing/gateway-harness';
import {
  gatewayAndChromium,
  pagePerTest,
  screenshot,
  seriousViolations,
} from '../portal/testing/portal-browser';
import { openSignedIn } from './testing/console-sign-in';

jest.setTimeout(120_000);

/**
 * The console's source form for the SQS and Google Pub/Sub brokers, in a real headless Chromium
 * against the local ElasticMQ and Pub/Sub emulator: each created (the gateway checks the settings
 * against the broker) and read back through the API, and each broker's field error (a queue or a
 * subscription that does not exist) shown beside its field with nothing created.
 */
describe('console source form: SQS and Google Pub/Sub sources', () => {
  const h = new GatewayHarness();
  const browser = gatewayAndChromium(h, {
    HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
    PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
  });
  const { page: currentPage, errors } = pagePerTest(browser);
  const name = (what: string) => `console-${what}-${randomBytes(3).toString('hex')}`;
  const focused = () => currentPage().evaluate('document.activeElement?.id') as Promise<string | undefined>;
  const sources = async (pid: string, key: string) => {
    const res = await h.call('GET', `/v1/projects/${pid}/sources`, { key });
    expect(res.status).toBe(200);
    return res.body.data.content as { uid: string; name: string; pub_sub: unknown }[];
  };
  const submit = () => currentPage().locator('#source-form button[type="submit"]').click();

  /** Opens the new source form, signed in with the project's key, with a broker type picked. */
  async function newBrokerSource(pid: string, key: string, broker: 'sqs' | 'google', sourceName: string) {
    await openSignedIn(currentPage(), `${h.gateway.url}/console/projects/${pid}/sources/new`, key);
    await currentPage().getByRole('heading', { name: 'New source', exact: true }).waitFor();
    await currentPage().locator('#source-form-name').fill(sourceName);
    await currentPage().locator('#source-form-type').selectOption('pub_sub');
    await currentPage().locator('#source-form-pub_sub-type').selectOption(broker);
  }

  it('SQS: the region is required before sending, a missing queue is named beside its field, an existing one is created', async () => {
    const p = await h.createProject('incoming');
    const queueName = name('sqs');
    const queue = await sqsQueue(queueName);
    try {
      await newBrokerSource(p.id, p.key, 'sqs', 'orders-sqs');
      await currentPage().locator('#source-form-pub_sub-sqs-queue_name').fill(`${queueName}-missing`);
      await currentPage().locator('#source-form-pub_sub-sqs-access_key_id').fill('x');
      await currentPage().locator('#source-form-pub_sub-sqs-secret_key').fill('x');
      expect(await seriousViolations(currentPage())).toEqual([]);
      await submit();
      await currentPage()
        .locator('#source-form-pub_sub-sqs-default_region-error', { hasText: 'is required' })
        .waitFor();
      expect(await focused()).toBe('source-form-pub_sub-sqs-default_region');
      await currentPage().locator('#source-form-pub_sub-sqs-default_region').fill(TEST_BROKERS.sqsRegion);
      await submit();
      await currentPage()
        .locator('#source-form-pub_sub-sqs-queue_name-error', { hasText: 'does not exist' })
        .waitFor({ timeout: 30_000 });
      expect(await focused()).toBe('source-form-pub_sub-sqs-queue_name');
      await screenshot(currentPage(), 'console-forms-sqs-source-400');
      expect(await seriousViolations(currentPage())).toEqual([]);
      expect(await sources(p.id, p.key)).toEqual([]);

      await currentPage().locator('#source-form-pub_sub-sqs-queue_name').fill(queueName);
      await currentPage().locator('#source-form-pub_sub-workers').fill('2');
      await submit();
      await currentPage()
        .getByRole('heading', { name: 'Source orders-sqs', exact: true })
        .waitFor({ timeout: 30_000 });
      const [created] = await sources(p.id, p.key);
      expect(created).toMatchObject({
        name: 'orders-sqs',
        type: 'pub_sub',
        pub_sub: {
          type: 'sqs',
          workers: 2,
          sqs: {
            queue_name: queueName,
            default_region: TEST_BROKERS.sqsRegion,
            access_key_id: 'x',
          },
        },
      });
      // the edit form starts from the stored settings
      expect(await currentPage().locator('#source-form-pub_sub-sqs-queue_name').inputValue()).toBe(queueName);
      expect(errors()).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('Google Pub/Sub: a missing subscription is named beside its field, an existing one is created', async () => {
    const p = await h.createProject('incoming');
    const subscriptionId = name('pubsub');
    const subscription = await pubsubSubscription(subscriptionId);
    try {
      await newBrokerSource(p.id, p.key, 'google', 'orders-pubsub');
      await currentPage().locator('#source-form-pub_sub-google-project_id').fill(TEST_BROKERS.pubsubProject);
      await currentPage()
        .locator('#source-form-pub_sub-google-subscription_id')
        .fill(`${subscriptionId}-missing`);
      expect(await seriousViolations(currentPage())).toEqual([]);
      await submit();
      await currentPage()
        .locator('#source-form-pub_sub-google-subscription_id-error', { hasText: 'does not exist' })
        .waitFor({ timeout: 30_000 });
      expect(await focused()).toBe('source-form-pub_sub-google-subscription_id');
      await screenshot(currentPage(), 'console-forms-pubsub-source-400');
      expect(await seriousViolations(currentPage())).toEqual([]);
      expect(await sources(p.id, p.key)).toEqual([]);

      await currentPage().locator('#source-form-pub_sub-google-subscription_id').fill(subscriptionId);
      await submit();
      await currentPage()
        .getByRole('heading', { name: 'Source orders-pubsub', exact: true })
        .waitFor({ timeout: 30_000 });
      const [created] = await sources(p.id, p.key);
      expect(created).toMatchObject({
        name: 'orders-pubsub',
        type: 'pub_sub',
        pub_sub: {
          type: 'google',
          google: { project_id: TEST_BROKERS.pubsubProject, subscription_id: subscriptionId },
        },
      });
      expect(await currentPage().locator('#source-form-pub_sub-google-subscription_id').inputValue()).toBe(
        subscriptionId,
      );
      expect(errors()).toEqual([]);
    } finally {
      await subscription.close();
    }
  });
});
