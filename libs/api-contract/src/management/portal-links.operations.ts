import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { idQuery, pageQuery } from '../schemas/pagination.schema';
import {
  portalLinkCreateBody,
  portalLinkResponse,
  portalLinkUpdateBody,
} from '../schemas/portal-link.schema';

const TAG = 'Portal links';
const BASE = '/v1/projects/:projectID/portal-links';
const ONE = `${BASE}/:portalLinkID` as const;

export const portalLinkOperations = defineOperations('api', {
  createPortalLink: {
    method: 'post',
    path: BASE,
    summary: 'Create a portal link',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: portalLinkCreateBody,
    status: 201,
    message: 'Portal link created successfully',
    response: portalLinkResponse,
  },
  listPortalLinks: {
    method: 'get',
    path: BASE,
    summary: 'List portal links',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query: { ...pageQuery, ownerId: idQuery('links of this owner') },
    paginated: true,
    status: 200,
    message: 'Portal links fetched successfully',
    response: portalLinkResponse,
  },
  getPortalLink: {
    method: 'get',
    path: ONE,
    summary: 'Get a portal link',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Portal link fetched successfully',
    response: portalLinkResponse,
  },
  updatePortalLink: {
    method: 'put',
    path: ONE,
    summary: 'Update a portal link',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: portalLinkUpdateBody,
    status: 200,
    message: 'Portal link updated successfully',
    response: portalLinkResponse,
  },
  refreshPortalLinkAuthKey: {
    method: 'get',
    path: `${ONE}/refresh_token`,
    summary: 'Issue a new one-hour auth key for a refresh_token portal link',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: false,
    status: 200,
    message: 'Portal link auth key refreshed successfully',
    response: portalLinkResponse,
  },
  revokePortalLink: {
    method: 'put',
    path: `${ONE}/revoke`,
    summary: 'Revoke a portal link: its token and auth key stop working',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    status: 200,
    message: 'Portal link revoked successfully',
    response: Type.Null(),
  },
});
