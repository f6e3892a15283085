import { version } from '../../../../package.json';

/** Every outbound request (deliveries, meta events) names the Hookrail release that sent it. */
export const USER_AGENT = `Hookrail/${version}`;
