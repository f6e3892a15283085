import type { Browser, Page } from 'playwright-core';
import type { RunningService } from '@hookrail/runtime';
import { startReceiver, startTestService, testConfig, type Receiver } from '@hookrail/testkit';
import { definition as dispatcher } from '../../../../dispatcher/src/service';
import type { GatewayHarness } from '../../testing/gateway-harness';
import { launchChromium } from '../../portal/testing/portal-browser';

/**
 * For a describe block driving the console through real deliveries: the gateway harness, a real
 * dispatcher on its topics, a receiver that fails its first request, and one Chromium page for the
 * whole block. No retry scheduler runs: after its failed first attempt a delivery waits in Retry
 * for the operator.
 */
export function consoleWithDispatcher(h: GatewayHarness): { page: () => Page; receiver: () => Receiver } {
  let worker: RunningService | undefined;
  let receiver: Receiver | undefined;
  let browser: Browser | undefined;
  let page: Page;
  beforeAll(async () => {
    await h.start();
    worker = await startTestService(
      dispatcher(testConfig('dispatcher', { HOOKRAIL_KAFKA_TOPIC_PREFIX: h.prefix })),
    );
    receiver = await startReceiver({ fail: 1 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await worker?.stop();
    await h.stop();
  });
  return { page: () => page, receiver: () => receiver! };
}
