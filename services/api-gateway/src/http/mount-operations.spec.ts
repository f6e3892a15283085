import { Router, type Request, type Response } from 'express';
import { Type } from '@sinclair/typebox';
import { DomainError } from '@hookrail/domain';
import { defineOperations, type OperationShape } from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import { gatewayOperations } from '../routes';
import type { Authenticator, Authenticators } from './authenticators';
import type { BoundOperation } from './call';
import { mountOperations, type MountDeps } from './mount-operations';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: Router & { stack?: Layer[] };
  matchers: ((path: string) => unknown)[];
}

const metrics = { histogram: () => ({ startTimer: () => () => undefined }), counter: () => ({}) };
const deps = { metrics, config: { security: {} } } as unknown as GatewayDeps;
const noAuth = {} as Authenticators;

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
  const { api: operations } = gatewayOperations(deps, {
    handlers: {
      signIn: async () => null,
      signInOptions: async () => null,
      getSession: async () => null,
      signOut: async () => null,
    },
  });
  const authenticators = { admin: {}, project: {} } as Authenticators;
  mountOperations(api, operations, { metrics, authenticators } as unknown as MountDeps);
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

  it('refuses to start an operation whose auth kind has no authenticator', () => {
    expect(() => mountOperations(Router(), operations, { metrics, authenticators: noAuth } as never)).toThrow(
      /createProject: no authenticator for auth kind admin/,
    );
  });
});

const shape = {
  summary: 's',
  tag: 't',
  auth: 'project',
  status: 200,
  message: 'm',
  response: Type.Null(),
} satisfies Partial<OperationShape>;

/** Planted operations, paths the old path rule answered the other way for. */
const planted = defineOperations('api', {
  // An events path: the old rule said "no change" for every one.
  plantedChange: {
    ...shape,
    method: 'post',
    path: '/v1/projects/:projectID/events/x',
    permission: 'configure',
    changesConfiguration: true,
  },
  // An endpoints path: the old rule said "change" for every POST.
  plantedNoChange: {
    ...shape,
    method: 'post',
    path: '/v1/projects/:projectID/endpoints/y',
    permission: 'operate',
    changesConfiguration: false,
  },
  plantedRead: {
    ...shape,
    method: 'get',
    path: '/v1/projects/:projectID/z',
    permission: 'read',
    changesConfiguration: false,
  },
});

/** Serves one request through the router with a fake request and response, and its outcome. */
async function serve(router: Router, method: string, url: string) {
  const res = { locals: {}, statusCode: 200, status: jest.fn(), json: jest.fn(), once: jest.fn() };
  res.status.mockImplementation((code: number) => ((res.statusCode = code), res));
  const req = { method, url, headers: {}, query: {}, body: {}, is: () => true, get: () => undefined };
  const error = await new Promise<unknown>((resolve) => {
    res.json.mockImplementation(() => resolve(undefined));
    (router as unknown as { handle: (q: unknown, s: unknown, n: (e?: unknown) => void) => void }).handle(
      req as unknown as Request,
      res as unknown as Response,
      (err) => resolve(err ?? new Error('no route took it')),
    );
  });
  return { error, status: res.statusCode };
}

describe('the mount function follows what each operation declares', () => {
  const project = { _id: 'p1' };
  const announced: string[] = [];
  const ran: string[] = [];
  let granted = new Set(['read', 'configure', 'operate']);
  const authenticator: Authenticator<string> = {
    authenticate: async () => 'someone',
    authorize: (_actor, op) => {
      if (!granted.has(op.permission)) throw new DomainError('forbidden', `no ${op.permission}`);
    },
    project: async () => project as never,
  };
  const router = Router();
  const operations: BoundOperation[] = Object.values(planted).map((op) => ({
    ...op,
    handler: async () => void ran.push(op.operationId),
  }));
  mountOperations(router, operations, {
    metrics,
    authenticators: { project: authenticator } as unknown as Authenticators,
    cache: { invalidate: () => undefined },
    announceConfigChange: async (id: string) => void announced.push(id),
  } as unknown as MountDeps);

  beforeEach(() => {
    announced.length = 0;
    ran.length = 0;
    granted = new Set(['read', 'configure', 'operate']);
  });

  it('announces a configuration change where the operation declares one, whatever its path', async () => {
    expect(await serve(router, 'POST', '/v1/projects/p1/events/x')).toEqual({
      error: undefined,
      status: 200,
    });
    expect(announced).toEqual(['p1']);
    announced.length = 0;
    await serve(router, 'POST', '/v1/projects/p1/endpoints/y');
    expect(ran).toEqual(['plantedChange', 'plantedNoChange']);
    expect(announced).toEqual([]);
  });

  it('refuses, before the handler runs, a caller without the permission the operation declares', async () => {
    granted = new Set(['read']);
    const { error } = await serve(router, 'POST', '/v1/projects/p1/events/x');
    expect(error).toMatchObject({ code: 'forbidden', message: 'no configure' });
    expect(ran).toEqual([]);
    expect(announced).toEqual([]);
    await serve(router, 'GET', '/v1/projects/p1/z');
    expect(ran).toEqual(['plantedRead']);
  });
});
