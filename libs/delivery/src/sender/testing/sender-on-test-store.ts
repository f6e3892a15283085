import type { Bus } from '@hookrail/bus';
import { SecretBox } from '@hookrail/domain';
import { fetchOAuth2Token, HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import { ConfigCache } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { connectTestStore } from '@hookrail/testkit';
import { createSender, type SenderDeps } from '../send-delivery';

/**
 * The real sender for integration tests: on the test store and `bus`, sending to private
 * addresses (the tests' receivers), silent, with no gates unless `extra` gives some.
 */
export async function senderOnTestStore(bus: Bus, extra: Partial<SenderDeps> = {}) {
  const store = await connectTestStore();
  const http = new HttpClient({ allowPrivateTargets: true });
  await bus.ensureTopics();
  const send = createSender({
    store,
    config: new ConfigCache(store),
    http,
    tokens: new OAuth2TokenCache((c) => fetchOAuth2Token(c, { http })),
    box: new SecretBox(),
    publisher: await bus.connectPublisher(),
    stats: { add: () => undefined },
    logger: createLogger({ service: 'tests', level: 'silent' }),
    metrics: new Metrics('tests', { defaultMetrics: false }),
    gates: [],
    ...extra,
  });
  const close = async () => {
    http.close();
    await bus.close();
    await store.close();
  };
  return { store, send, close };
}
