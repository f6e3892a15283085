import type { RunningService } from '@hookrail/runtime';
import { startTestService, testConfig, uniquePrefix } from '@hookrail/testkit';
import { definition as gateway } from '../../services/api-gateway/src/service';
import { definition as dispatcher } from '../../services/dispatcher/src/service';

/** The admin key testConfig gives every service under test. */
const TEST_ADMIN_KEY = 'hr_admin.test-admin-key-0123456789';

export interface DeliveryStack {
  /** The management API base, as in .local/stack.json `gateway_url`. */
  apiUrl: string;
  adminKey: string;
  /** Base URLs (health, readiness) of the services started, as in .local/stack.json `services`. */
  services: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The part of the local stack an events-API delivery goes through, on the real servers: the
 * gateway (events API → Kafka) and the dispatcher (routing, signing, sending), in this process
 * with a topic prefix and database of their own.
 */
export async function startDeliveryStack(): Promise<DeliveryStack> {
  const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('docs') };
  const gw: RunningService = await startTestService(gateway(testConfig('api-gateway', env)));
  let dp: RunningService;
  try {
    dp = await startTestService(dispatcher(testConfig('dispatcher', env)));
  } catch (err) {
    await gw.stop();
    throw err;
  }
  return {
    apiUrl: `${gw.url}/api`,
    adminKey: TEST_ADMIN_KEY,
    services: { 'api-gateway': gw.url, dispatcher: dp.url },
    stop: async () => {
      await dp.stop();
      await gw.stop();
    },
  };
}
