import { errorMessage, toTimestamp } from '@hookrail/domain';
import type { HttpClient } from '../http/http-client';
import { buildClientAssertion } from './client-assertion';
import type { OAuth2Config, OAuth2TokenResult } from './oauth2.types';

const UNIT_MS: Record<string, number> = {
  milliseconds: 1,
  millisecond: 1,
  ms: 1,
  seconds: 1000,
  second: 1000,
  s: 1000,
  minutes: 60_000,
  minute: 60_000,
  m: 60_000,
  hours: 3_600_000,
  hour: 3_600_000,
  h: 3_600_000,
};
/** Tokens without expires_in are treated as valid for an hour (and re-fetched after). */
const DEFAULT_LIFETIME_MS = 3_600_000;
const TOKEN_TIMEOUT_MS = 10_000;

export interface FetchTokenDeps {
  http: HttpClient;
  now?: () => number;
  timeoutMs?: number;
}

/**
 * The client-credentials exchange, exactly as delivery performs it (operation 11 calls this too).
 * Never throws: every failure is a typed result with a message fit for the user.
 */
export async function fetchOAuth2Token(
  config: OAuth2Config,
  deps: FetchTokenDeps,
): Promise<OAuth2TokenResult> {
  const now = deps.now ?? Date.now;
  const fail = (error: Extract<OAuth2TokenResult, { success: false }>['error'], message: string) =>
    ({ success: false, error, message }) as const;

  if (!config.url) return fail('invalid_config', 'url is required');
  if (!config.client_id) return fail('invalid_config', 'client_id is required');
  const unitMs = UNIT_MS[(config.expiry_time_unit || 'seconds').toLowerCase()];
  if (unitMs === undefined)
    return fail('invalid_config', `unsupported expiry_time_unit "${config.expiry_time_unit}"`);

  const form = new URLSearchParams({
    grant_type: config.grant_type || 'client_credentials',
    client_id: config.client_id,
  });
  if (config.scope) form.set('scope', config.scope);
  if (config.audience) form.set('audience', config.audience);
  const type = config.authentication_type || 'shared_secret';
  if (type === 'shared_secret') {
    if (!config.client_secret) return fail('invalid_config', 'client_secret is required for shared_secret');
    form.set('client_secret', config.client_secret);
  } else if (type === 'client_assertion') {
    try {
      form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      form.set('client_assertion', await buildClientAssertion(config, now()));
    } catch (err) {
      return fail('invalid_config', `cannot sign the client assertion: ${errorMessage(err)}`);
    }
  } else {
    return fail('invalid_config', `unsupported authentication_type "${type}"`);
  }

  const requestedAt = now();
  const res = await deps.http.send({
    url: config.url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
    timeoutMs: deps.timeoutMs ?? TOKEN_TIMEOUT_MS,
    poolKey: 'oauth2',
  });
  if (res.kind === 'error') return fail('request_failed', `token request failed: ${res.message}`);
  if (res.status < 200 || res.status >= 300) {
    return fail('token_endpoint_error', `token endpoint answered ${res.status}: ${res.body.slice(0, 500)}`);
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
    if (!body || typeof body !== 'object') throw new Error('not an object');
  } catch {
    return fail('invalid_response', 'token endpoint did not answer with a JSON object');
  }
  const fields = config.field_mapping ?? {};
  const accessToken = body[fields.access_token || 'access_token'];
  if (typeof accessToken !== 'string' || accessToken === '') {
    return fail(
      'invalid_response',
      `token response has no "${fields.access_token || 'access_token'}" string`,
    );
  }
  const tokenType = body[fields.token_type || 'token_type'];
  const expiresIn = Number(body[fields.expires_in || 'expires_in']);
  const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * unitMs : DEFAULT_LIFETIME_MS;
  const expiresAtMs = requestedAt + lifetimeMs;
  return {
    success: true,
    access_token: accessToken,
    // RFC 6750: the scheme is case-insensitive; "Bearer" when the server does not say.
    token_type: typeof tokenType === 'string' && tokenType ? tokenType : 'Bearer',
    expires_at: toTimestamp(expiresAtMs),
    expiresAtMs,
  };
}
