import { Router } from 'express';
import type { GatewayDeps } from '../deps';
import { mountApiRoutes, type RouterDeps } from './api-router';
import { managementRoutes } from './management-routes';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: Router & { stack?: Layer[] };
  matchers: ((path: string) => unknown)[];
}

const deps = {
  metrics: { histogram: () => ({}) },
} as unknown as RouterDeps;

/** The patterns a request is tested against until a route takes it, and that route's path. */
function walk(stack: Layer[], method: string, path: string): { tested: number; route?: string } {
  let tested = 0;
  for (const layer of stack) {
    tested++;
    const m = layer.matchers.map((match) => match(path)).find(Boolean) as { path: string } | undefined;
    if (!m) continue;
    if (layer.route) {
      if (layer.route.methods[method]) return { tested, route: layer.route.path };
      continue;
    }
    const inner = walk(layer.handle.stack ?? [], method, path.slice(m.path.length) || '/');
    tested += inner.tested;
    if (inner.route) return { tested, route: inner.route };
  }
  return { tested };
}

describe('the management API router', () => {
  const api = Router();
  mountApiRoutes(api, managementRoutes({} as GatewayDeps), deps);
  const router = api as unknown as { stack: Layer[] };

  it("tests a request against its resource's routes, not every route's", () => {
    const events = walk(router.stack, 'post', '/v1/projects/p1/events');
    expect(events.route).toBe('/');
    expect(events.tested).toBeLessThanOrEqual(16);
    expect(walk(router.stack, 'post', '/v1/projects/p1/events/fanout').route).toBe('/fanout');
  });

  it('keeps resources whose names share a beginning apart', () => {
    expect(walk(router.stack, 'get', '/v1/projects/p1/eventdeliveries/d1').route).toBe('/:deliveryID');
    expect(walk(router.stack, 'get', '/v1/projects/p1/events/e1').route).toBe('/:eventID');
    expect(walk(router.stack, 'get', '/v1/projects/p1/event-types').route).toBe('/');
  });

  it('keeps routes outside a project resource on the router itself', () => {
    expect(walk(router.stack, 'get', '/v1/projects/p1').route).toBe('/v1/projects/:projectID');
    expect(walk(router.stack, 'get', '/v1/admin/dead-letters').route).toBe('/v1/admin/dead-letters');
    expect(walk(router.stack, 'get', '/v1/projects/p1/nothing-here').route).toBeUndefined();
  });
});
