import { createCaller, portalOperations, type ResponseOf } from '@hookrail/api-contract';
import { requestJson } from '../components/http';

/** The link's credential: the page is opened as `/portal?token=...`. */
export const token = new URLSearchParams(location.search).get('token') ?? '';

/** The portal API's operations, as the contract declares them. */
export const portal = portalOperations;

/** A typed call to the portal API with the link's token as a Bearer credential. */
export const portalCall = createCaller((method, url, body) =>
  requestJson(method, url, { headers: { authorization: `Bearer ${token}` }, body }),
);

type Ops = typeof portalOperations;
export type PortalLink = ResponseOf<Ops['portalGetLink']>;
export type PortalEndpoint = ResponseOf<Ops['portalGetEndpoint']>;
export type PortalDelivery = ResponseOf<Ops['portalGetDelivery']>;
export type PortalDeliveryPage = ResponseOf<Ops['portalListDeliveries']>;
export type EventTypeSeen = ResponseOf<Ops['portalListEventTypes']>[number];
export type PortalCatalogEntry = ResponseOf<Ops['portalListEventCatalog']>[number];
