import { Type } from '@sinclair/typebox';
import { parsePageQuery, type PortalLinkDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/legacy-route';
import { presentPortalLink } from '../presenters/portal-link.presenter';
import { idQuery, pageQuery } from '@hookrail/api-contract';
import { portalLinkCreateBody, portalLinkResponse, portalLinkUpdateBody } from '@hookrail/api-contract';
import {
  createPortalLink,
  getPortalLink,
  linkEndpoints,
  refreshPortalAuthKey,
  revokePortalLink,
  updatePortalLink,
} from '../usecases/portal-links.usecase';

const TAG = 'Portal links';
const BASE = '/v1/projects/:projectID/portal-links';
const ONE = `${BASE}/:portalLinkID`;

export const portalLinkRoutes: RouteFile<GatewayDeps> = (deps) => {
  const present = async (doc: PortalLinkDoc, authKey?: string) =>
    presentPortalLink(doc, await linkEndpoints(deps, doc), deps, authKey);
  return [
    route({
      method: 'post',
      path: BASE,
      operationId: 'createPortalLink',
      summary: 'Create a portal link (operation 6)',
      tag: TAG,
      auth: 'project',
      body: portalLinkCreateBody,
      status: 201,
      message: 'Portal link created successfully',
      response: portalLinkResponse,
      async handler({ project, body }) {
        const { doc, authKey } = await createPortalLink(deps, project._id, body);
        return present(doc, authKey);
      },
    }),
    {
      method: 'get',
      path: BASE,
      operationId: 'listPortalLinks',
      summary: 'List portal links',
      tag: TAG,
      auth: 'project',
      query: { ...pageQuery, ownerId: idQuery('links of this owner') },
      paginated: true,
      status: 200,
      message: 'Portal links fetched successfully',
      response: portalLinkResponse,
      async handler({ project, query }) {
        const ownerId = query.ownerId === undefined ? undefined : String(query.ownerId);
        const page = await deps.store.portalLinks.page(project._id, { ownerId }, parsePageQuery(query));
        return {
          content: await Promise.all(page.content.map((d) => present(d))),
          pagination: page.pagination,
        };
      },
    },
    {
      method: 'get',
      path: ONE,
      operationId: 'getPortalLink',
      summary: 'Get a portal link (operation 7)',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Portal link fetched successfully',
      response: portalLinkResponse,
      handler: async ({ project, params }) =>
        present(await getPortalLink(deps, project._id, params.portalLinkID)),
    },
    route({
      method: 'put',
      path: ONE,
      operationId: 'updatePortalLink',
      summary: 'Update a portal link (operation 8)',
      tag: TAG,
      auth: 'project',
      body: portalLinkUpdateBody,
      status: 200,
      message: 'Portal link updated successfully',
      response: portalLinkResponse,
      async handler({ project, params, body }) {
        const { doc, authKey } = await updatePortalLink(deps, project._id, params.portalLinkID, body);
        return present(doc, authKey);
      },
    }),
    {
      method: 'get',
      path: `${ONE}/refresh_token`,
      operationId: 'refreshPortalLinkAuthKey',
      summary: 'Issue a new one-hour auth key for a refresh_token portal link',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Portal link auth key refreshed successfully',
      response: portalLinkResponse,
      async handler({ project, params }) {
        const { doc, authKey } = await refreshPortalAuthKey(deps, project._id, params.portalLinkID);
        return present(doc, authKey);
      },
    },
    {
      method: 'put',
      path: `${ONE}/revoke`,
      operationId: 'revokePortalLink',
      summary: 'Revoke a portal link: its token and auth key stop working',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Portal link revoked successfully',
      response: Type.Null(),
      async handler({ project, params }) {
        await revokePortalLink(deps, project._id, params.portalLinkID);
        return null;
      },
    },
  ];
};
