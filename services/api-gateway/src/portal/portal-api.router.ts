import { Router, type Request } from 'express';
import { ConflictError, NotFoundError, ok } from '@hookrail/domain';
import { replayEvent } from '@hookrail/operations';
import {
  parsePageQuery,
  type DeliveryListFilter,
  type DeliveryStatus,
  type EndpointDoc,
} from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { jsonBody } from '../http/json-body';
import { validate } from '../http/validator';
import { portalTestEventBody } from '@hookrail/api-contract';
import { publishEvent } from '../usecases/publish-event.usecase';
import { resendDeliveryOrThrow } from '../usecases/resend-delivery.usecase';
import { authenticatePortal, portalCredential, requireManage, type PortalSession } from './portal-auth';
import type { PortalEndpointOps } from './portal-endpoint-ops';
import {
  eventTypeCatalog,
  presentPortalDelivery,
  presentPortalEndpoint,
  presentPortalEvent,
  presentPortalLink,
} from './portal.presenter';
import { linkEndpoint, linkEndpointIds, linkEndpoints, scopedEndpointIds } from './portal-scope';

/** A link's catalog reads at most this many (endpoint, type) documents. */
const CATALOG_LIMIT = 2_000;

type Handler = (
  session: PortalSession,
  req: Request,
) => Promise<{ status?: number; message: string; data: unknown }>;

/**
 * The portal API (`/portal-api`): everything a link's holder may do, each query limited to the
 * link's endpoints as they are at request time. An id outside the link answers 404, a management
 * call on a link without `can_manage_endpoint` 403.
 */
export function portalApiRouter(deps: GatewayDeps, endpointOps: PortalEndpointOps): Router {
  const { store, box } = deps;
  const router = Router();
  router.use(jsonBody(deps.config.http.bodyLimitBytes));
  /**
   * `manage`: the link must be allowed to manage endpoints. `configure`: besides, the call changes
   * configuration, which every dispatcher is told before the answer (a resend or a test event does
   * not: it only publishes).
   */
  const handle =
    (fn: Handler, access: 'read' | 'manage' | 'configure' = 'read') =>
    async (req: Request, res: import('express').Response) => {
      res.locals.route = `/portal-api${req.route?.path ?? ''}`;
      const session = await authenticatePortal(portalCredential(req.headers.authorization, req.query.token), {
        store,
        now: deps.now,
      });
      res.locals.projectId = session.project._id;
      if (access !== 'read') requireManage(session);
      let out;
      try {
        out = await fn(session, req);
      } finally {
        if (access === 'configure') {
          deps.cache.invalidate(session.project._id);
          await deps.bus.announceConfigChange(session.project._id);
        }
      }
      res.status(out.status ?? 200).json(ok(out.message, out.data));
    };
  const query = (req: Request) => req.query as Record<string, unknown>;
  const param = (req: Request, name: string) => String(req.params[name]);
  // One subscription query per endpoint: a link shows one customer's few endpoints.
  const present = async (e: EndpointDoc) =>
    presentPortalEndpoint(e, box, deps.now(), await store.subscriptions.listByEndpoint(e.project_id, e._id));

  function manageRoutes(endpointOps: PortalEndpointOps) {
    router.post(
      '/endpoints',
      handle(
        async (s, req) => ({
          status: 201,
          message: 'Endpoint created',
          data: await present(await endpointOps.create(s, req.body)),
        }),
        'configure',
      ),
    );
    router.put(
      '/endpoints/:endpointID',
      handle(async (s, req) => {
        const endpoint = await linkEndpoint(store, s, param(req, 'endpointID'));
        return {
          status: 202,
          message: 'Endpoint updated',
          data: await present(await endpointOps.update(s, endpoint, req.body)),
        };
      }, 'configure'),
    );
    router.delete(
      '/endpoints/:endpointID',
      handle(async (s, req) => {
        await endpointOps.remove(s, await linkEndpoint(store, s, param(req, 'endpointID')));
        return { message: 'Endpoint deleted', data: null };
      }, 'configure'),
    );
    for (const action of ['pause', 'activate'] as const)
      router.put(
        `/endpoints/:endpointID/${action}`,
        handle(async (s, req) => {
          const endpoint = await linkEndpoint(store, s, param(req, 'endpointID'));
          return {
            status: 202,
            message: action === 'pause' ? 'Endpoint paused' : 'Endpoint activated',
            data: await present(await endpointOps[action](s, endpoint)),
          };
        }, 'configure'),
      );
    // "Send a test event": a real event aimed at the endpoint, delivered, signed and recorded like
    // any other (its subscriptions' event-type filters apply, so pick a type the endpoint accepts).
    router.post(
      '/endpoints/:endpointID/test-event',
      handle(async (s, req) => {
        const endpoint = await linkEndpoint(store, s, param(req, 'endpointID'));
        const body = validate(portalTestEventBody, req.body ?? {}, 'invalid test event');
        const eventType = body.event_type ?? 'hookrail.test';
        const data = body.data ?? { message: 'Test event from the webhooks portal', sent_at: deps.now() };
        const event = await publishEvent(deps, s.project, {
          mode: 'single',
          body: { endpoint_id: endpoint._id, event_type: eventType.trim(), data },
        });
        return { status: 201, message: 'Test event sent', data: event };
      }, 'manage'),
    );
    router.put(
      '/endpoints/:endpointID/expire_secret',
      handle(async (s, req) => {
        const endpoint = await linkEndpoint(store, s, param(req, 'endpointID'));
        return {
          message: 'Endpoint secret expired',
          data: await present(await endpointOps.expireSecret(s, endpoint, req.body)),
        };
      }, 'configure'),
    );
  }

  router.get(
    '/link',
    handle(async (s) => ({
      message: 'Portal link fetched',
      data: presentPortalLink(s.link, (await linkEndpoints(store, s)).length),
    })),
  );

  router.get(
    '/endpoints',
    handle(async (s) => ({
      message: 'Endpoints fetched',
      data: await Promise.all((await linkEndpoints(store, s)).map(present)),
    })),
  );
  router.get(
    '/endpoints/:endpointID',
    handle(async (s, req) => ({
      message: 'Endpoint fetched',
      data: await present(await linkEndpoint(store, s, param(req, 'endpointID'))),
    })),
  );
  manageRoutes(endpointOps);

  router.get(
    '/events',
    handle(async (s, req) => {
      const ids = await scopedEndpointIds(store, s, query(req).endpointId);
      const page = await store.events.page(
        s.link.project_id,
        { endpointIds: ids },
        parsePageQuery(query(req)),
      );
      const visible = new Set(ids);
      return {
        message: 'Events fetched',
        data: { ...page, content: page.content.map((e) => presentPortalEvent(e, visible)) },
      };
    }),
  );
  router.get(
    '/events/:eventID',
    handle(async (s, req) => {
      const ids = await scopedEndpointIds(store, s, undefined);
      const event = await store.events.findTargeting(s.link.project_id, param(req, 'eventID'), ids);
      if (!event) throw new NotFoundError('event');
      return { message: 'Event fetched', data: presentPortalEvent(event, new Set(ids)) };
    }),
  );
  // Replays the event to the link's endpoints only (never to another customer's): managing links.
  router.put(
    '/events/:eventID/replay',
    handle(async (s, req) => {
      const ids = await scopedEndpointIds(store, s, undefined);
      const event = await store.events.findTargeting(s.link.project_id, param(req, 'eventID'), ids);
      if (!event) throw new NotFoundError('event');
      const out = await replayEvent(deps, s.link.project_id, event._id, new Set(ids));
      if (out.kind !== 'replayed')
        throw new ConflictError('the event has no delivery to your endpoints to replay');
      return {
        message: 'Event replayed',
        data: { event_id: event._id, deliveries: out.deliveries.map((d) => presentPortalDelivery(d, false)) },
      };
    }, 'manage'),
  );
  // The event types the link's endpoints have been sent, from the catalog the dispatchers keep.
  router.get(
    '/event-types',
    handle(async (s) => ({
      message: 'Event types fetched',
      data: eventTypeCatalog(
        await store.eventTypes.listForEndpoints(
          s.link.project_id,
          await linkEndpointIds(store, s),
          CATALOG_LIMIT,
        ),
      ),
    })),
  );

  router.get(
    '/eventdeliveries',
    handle(async (s, req) => {
      const q = query(req);
      const ids = await scopedEndpointIds(store, s, q.endpointId);
      const filter: DeliveryListFilter = { endpointIds: ids };
      if (typeof q.eventId === 'string' && q.eventId) filter.eventId = q.eventId;
      if (typeof q.status === 'string' && q.status) filter.statuses = [q.status as DeliveryStatus];
      const page = await store.deliveries.page(s.link.project_id, filter, parsePageQuery(q));
      return {
        message: 'Event deliveries fetched',
        data: { ...page, content: page.content.map((d) => presentPortalDelivery(d, false)) },
      };
    }),
  );
  const linkDelivery = async (s: PortalSession, id: string) => {
    const ids = await scopedEndpointIds(store, s, undefined);
    const delivery = await store.deliveries.findToEndpoints(s.link.project_id, id, ids);
    if (!delivery) throw new NotFoundError('event delivery');
    return delivery;
  };
  router.get(
    '/eventdeliveries/:deliveryID',
    handle(async (s, req) => ({
      message: 'Event delivery fetched',
      data: presentPortalDelivery(await linkDelivery(s, param(req, 'deliveryID')), true),
    })),
  );
  router.put(
    '/eventdeliveries/:deliveryID/resend',
    handle(async (s, req) => {
      const delivery = await linkDelivery(s, param(req, 'deliveryID'));
      // also one still in Retry: its holder may want it now rather than at the next backoff
      const updated = await resendDeliveryOrThrow(deps, s.link.project_id, delivery._id, 'retry_now');
      return { message: 'Event delivery resent', data: presentPortalDelivery(updated, true) };
    }),
  );
  // Force resend sends again even what succeeded: a management right, unlike the plain resend.
  router.put(
    '/eventdeliveries/:deliveryID/forceresend',
    handle(async (s, req) => {
      const delivery = await linkDelivery(s, param(req, 'deliveryID'));
      const updated = await resendDeliveryOrThrow(deps, s.link.project_id, delivery._id, 'force');
      return { message: 'Event delivery resent', data: presentPortalDelivery(updated, true) };
    }, 'manage'),
  );
  return router;
}
