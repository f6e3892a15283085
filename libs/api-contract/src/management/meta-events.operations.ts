import { defineOperations } from '../operation';
import { enumOf, str } from '../schemas/common.schema';
import { META_EVENT_STATUSES, metaEventResponse } from '../schemas/meta-event.schema';
import { pageQuery } from '../schemas/pagination.schema';

const TAG = 'Meta events';
const BASE = '/v1/projects/:projectID/meta-events';
const ONE = `${BASE}/:metaEventID` as const;

export const metaEventOperations = defineOperations('api', {
  listMetaEvents: {
    method: 'get',
    path: BASE,
    summary: 'List meta events, newest first',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query: { ...pageQuery, event_type: str(), status: enumOf(META_EVENT_STATUSES) },
    paginated: true,
    status: 200,
    message: 'Meta events fetched successfully',
    response: metaEventResponse,
  },
  getMetaEvent: {
    method: 'get',
    path: ONE,
    summary: 'Get a meta event',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Meta event fetched successfully',
    response: metaEventResponse,
  },
  resendMetaEvent: {
    method: 'put',
    path: `${ONE}/resend`,
    summary: 'Send a meta event again at once',
    tag: TAG,
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    status: 200,
    message: 'Meta event scheduled for resend',
    response: metaEventResponse,
  },
});
