import { parsePageQuery, type PortalLinkDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentPortalLink } from './portal-link.presenter';
import {
  createPortalLink,
  getPortalLink,
  linkEndpoints,
  refreshPortalAuthKey,
  revokePortalLink,
  updatePortalLink,
} from './portal-links.usecase';
import { portalLinkOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

export function portalLinkHandlers(deps: GatewayDeps): Handlers<typeof portalLinkOperations> {
  const present = async (doc: PortalLinkDoc, authKey?: string) =>
    presentPortalLink(doc, await linkEndpoints(deps, doc), deps, authKey);
  return {
    async createPortalLink({ project, body }) {
      const { doc, authKey } = await createPortalLink(deps, project._id, body);
      return present(doc, authKey);
    },
    async listPortalLinks({ project, query }) {
      const ownerId = query.ownerId === undefined ? undefined : String(query.ownerId);
      const page = await deps.store.portalLinks.page(project._id, { ownerId }, parsePageQuery(query));
      return {
        content: await Promise.all(page.content.map((d) => present(d))),
        pagination: page.pagination,
      };
    },
    getPortalLink: async ({ project, params }) =>
      present(await getPortalLink(deps, project._id, params.portalLinkID)),
    async updatePortalLink({ project, params, body }) {
      const { doc, authKey } = await updatePortalLink(deps, project._id, params.portalLinkID, body);
      return present(doc, authKey);
    },
    async refreshPortalLinkAuthKey({ project, params }) {
      const { doc, authKey } = await refreshPortalAuthKey(deps, project._id, params.portalLinkID);
      return present(doc, authKey);
    },
    async revokePortalLink({ project, params }) {
      await revokePortalLink(deps, project._id, params.portalLinkID);
      return null;
    },
  };
}
