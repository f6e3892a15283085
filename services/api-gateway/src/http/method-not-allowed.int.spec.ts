import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

describe('a known path under another method answers 405 with Allow', () => {
  const h = new GatewayHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it('in the management API, naming the methods the path takes', async () => {
    const p = await h.createProject();
    const res = await h.call('POST', `/v1/projects/${p.id}/eventdeliveries/some-id/resend`, {
      key: p.key,
      unchecked: true,
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PUT');
    expect(res.body).toMatchObject({ status: false, message: expect.stringContaining('use PUT') });
    const project = await h.call('PATCH', `/v1/projects/${p.id}`, { key: ADMIN_KEY, unchecked: true });
    expect(project.status).toBe(405);
    expect(project.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
  });

  it('an unknown path is still 404', async () => {
    const res = await h.call('POST', '/v1/nowhere', { key: ADMIN_KEY, unchecked: true });
    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
  });

  it('in the portal API and the console', async () => {
    const portal = await fetch(`${h.gateway.url}/portal-api/eventdeliveries/x/resend`, { method: 'POST' });
    expect(portal.status).toBe(405);
    expect(portal.headers.get('allow')).toBe('PUT');
    const session = await fetch(`${h.gateway.url}/console/session`, { method: 'PUT' });
    expect(session.status).toBe(405);
    expect(session.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'POST']);
  });
});
