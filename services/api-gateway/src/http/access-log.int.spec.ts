import { captureLogs, waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

describe('access log: one line per API request, without keys, tokens, paths or bodies', () => {
  const h = new GatewayHarness();
  const logs = captureLogs('api-gateway');
  beforeAll(() => h.start({}, logs.logger));
  afterAll(() => h.stop());

  const requestLines = () => logs.lines().filter((l) => l.msg === 'request' || l.msg === 'request failed');

  it('logs method, route template, status, latency and project id at info', async () => {
    const p = await h.createProject();
    const before = requestLines().length;
    await h.call('GET', `/v1/projects/${p.id}`, { key: p.key });
    await h.call('GET', `/v1/projects/${p.id}/endpoints/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { key: p.key });
    await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
      key: p.key,
      body: { name: 'x', url: 'http://localhost:9/hook', secret: 'super-secret-value' },
    });
    await h.call('GET', '/v1/nowhere', { key: p.key, unchecked: true });
    const lines = await waitFor('four request lines', () => {
      const l = requestLines().slice(before);
      return l.length >= 4 ? l : undefined;
    });
    expect(lines.map((l) => [l.method, l.route, l.status])).toEqual([
      ['GET', '/api/v1/projects/:projectID', 200],
      ['GET', '/api/v1/projects/:projectID/endpoints/:endpointID', 404],
      ['POST', '/api/v1/projects/:projectID/endpoints', 201],
      ['GET', 'unmatched', 404],
    ]);
    for (const l of lines.slice(0, 3)) {
      expect(l).toMatchObject({ level: 'info', project_id: p.id, service: 'api-gateway' });
      expect(typeof l.latency_ms).toBe('number');
    }
    const text = logs.text();
    for (const secret of [p.key, ADMIN_KEY, 'super-secret-value', 'localhost:9/hook'])
      expect(text).not.toContain(secret);
  });

  it('can be switched off with HOOKRAIL_LOG_REQUESTS=false', async () => {
    const quiet = new GatewayHarness();
    const quietLogs = captureLogs('api-gateway');
    await quiet.start({ HOOKRAIL_LOG_REQUESTS: 'false' }, quietLogs.logger);
    try {
      await quiet.createProject();
      expect(quietLogs.lines().filter((l) => l.msg === 'request')).toEqual([]);
    } finally {
      await quiet.stop();
    }
  });
});
