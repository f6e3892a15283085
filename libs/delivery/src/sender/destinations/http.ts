import { credentialHeaderNames, endpointAuthHeaders } from '@hookrail/outbound';
import type { AttemptResult } from '@hookrail/retry';
import type { EndpointDoc } from '@hookrail/store';
import { attemptRecord } from '../attempt-record';
import {
  requestDuration,
  type Destination,
  type DestinationContext,
  type SignedRequest,
} from './destination';

/** An `http` endpoint: the signed request POSTed to its URL, with its authentication and mTLS. */
export const httpDestination: Destination = {
  type: 'http',
  open(ctx) {
    const observe = requestDuration(ctx.metrics);
    return async (endpoint, request) => {
      const result = await post(ctx, endpoint, request);
      observe(result);
      return {
        kind: 'attempt',
        result,
        record: () =>
          attemptRecord(
            endpoint.url,
            request.headers,
            result,
            credentialHeaderNames(endpoint.authentication),
          ),
      };
    };
  },
};

async function post(
  ctx: DestinationContext,
  endpoint: EndpointDoc,
  request: SignedRequest,
): Promise<AttemptResult> {
  const auth = await endpointAuthHeaders(endpoint._id, endpoint.authentication, ctx);
  if (auth.kind === 'failed') return { kind: 'not_sent', message: auth.message };
  Object.assign(request.headers, auth.headers);
  return ctx.http.send({
    url: endpoint.url,
    headers: request.headers,
    body: request.body,
    timeoutMs: request.timeoutMs,
    poolKey: endpoint._id,
    clientCert: endpoint.mtls_client_cert
      ? {
          cert: endpoint.mtls_client_cert.client_cert,
          key: ctx.box.open(endpoint.mtls_client_cert.client_key),
        }
      : undefined,
  });
}
