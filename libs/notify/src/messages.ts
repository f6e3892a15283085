import { endpointAddress, type AddressedEndpoint } from '@hookrail/api-contract';

/** What happened to an endpoint, in words for people (e-mail and Slack). */
export type EndpointNotice =
  | { kind: 'disabled'; reason: string }
  | { kind: 'alert'; failures: number; threshold: string; subscriptionName?: string };

export interface NoticeEndpoint extends AddressedEndpoint {
  _id: string;
  project_id: string;
  name: string;
}

export interface ComposedNotice {
  subject: string;
  text: string;
}

export function composeNotice(endpoint: NoticeEndpoint, notice: EndpointNotice): ComposedNotice {
  const who = `endpoint "${endpoint.name}" (${endpoint._id}, ${endpointAddress(endpoint)}) in project ${endpoint.project_id}`;
  switch (notice.kind) {
    case 'disabled':
      return {
        subject: `[Hookrail] Endpoint ${endpoint.name} was disabled`,
        text:
          `Hookrail disabled ${who}: ${notice.reason}.\n` +
          'Deliveries waiting for it are held; new ones are recorded as Discarded. ' +
          'Activate the endpoint to resume, then resend the discarded deliveries.',
      };
    case 'alert': {
      const sub = notice.subscriptionName ? ` (subscription "${notice.subscriptionName}")` : '';
      return {
        subject: `[Hookrail] Delivery failures on endpoint ${endpoint.name}`,
        text: `${notice.failures} deliveries to ${who}${sub} failed within ${notice.threshold}.`,
      };
    }
  }
}
