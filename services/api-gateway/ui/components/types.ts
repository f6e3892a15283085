import type { AttemptResponse, PortalAttemptResponse } from '@hookrail/api-contract';

/** An attempt as the management API (status as text, like Convoy) or the portal API shows it. */
export type Attempt = AttemptResponse | PortalAttemptResponse;
