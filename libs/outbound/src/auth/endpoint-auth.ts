import type { SecretBox } from '@hookrail/domain';
import type { OAuth2TokenCache } from '../oauth2/token-cache';
import type { OAuth2Config, OAuth2SigningKey } from '../oauth2/oauth2.types';

/** Endpoint `authentication` as stored (credentials possibly sealed with the SecretBox). */
export type EndpointAuthentication =
  | { type: 'api_key'; api_key: { header_name: string; header_value: string } }
  | { type: 'basic_auth'; basic_auth: { username: string; password: string } }
  | { type: 'oauth2'; oauth2: OAuth2Config };

export type AuthHeadersResult =
  { kind: 'ok'; headers: Record<string, string> } | { kind: 'failed'; message: string };

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

/** The oauth2 settings with client_secret and the private JWK members opened. */
export function openOAuth2Config(config: OAuth2Config, box: SecretBox): OAuth2Config {
  const out: OAuth2Config = { ...config };
  if (out.client_secret) out.client_secret = box.open(out.client_secret);
  if (out.signing_key) {
    const key: OAuth2SigningKey = { ...out.signing_key };
    for (const m of PRIVATE_JWK_MEMBERS) if (key[m]) key[m] = box.open(key[m]);
    out.signing_key = key;
  }
  return out;
}

/**
 * The headers that authenticate a delivery to its endpoint. OAuth2 tokens come from the cache
 * (one fetch per endpoint until shortly before expiry); a failed token fetch fails the attempt,
 * which then follows the retry policy like any other failed attempt.
 */
export async function endpointAuthHeaders(
  endpointId: string,
  auth: EndpointAuthentication | Record<string, unknown> | null | undefined,
  deps: { box: SecretBox; tokens: OAuth2TokenCache },
): Promise<AuthHeadersResult> {
  if (!auth || !('type' in auth) || !auth.type) return { kind: 'ok', headers: {} };
  const a = auth as EndpointAuthentication;
  switch (a.type) {
    case 'api_key':
      return { kind: 'ok', headers: { [a.api_key.header_name]: deps.box.open(a.api_key.header_value) } };
    case 'basic_auth': {
      const pair = `${a.basic_auth.username}:${deps.box.open(a.basic_auth.password)}`;
      return { kind: 'ok', headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}` } };
    }
    case 'oauth2': {
      const token = await deps.tokens.get(endpointId, openOAuth2Config(a.oauth2, deps.box));
      if (!token.success) return { kind: 'failed', message: `oauth2: ${token.message}` };
      const scheme = token.token_type.toLowerCase() === 'bearer' ? 'Bearer' : token.token_type;
      return { kind: 'ok', headers: { authorization: `${scheme} ${token.access_token}` } };
    }
    default:
      return { kind: 'failed', message: `unsupported authentication type "${(a as { type: string }).type}"` };
  }
}

/** Header names whose values are credentials: stored attempts show them redacted. */
export function credentialHeaderNames(
  auth: EndpointAuthentication | Record<string, unknown> | null | undefined,
): string[] {
  const names = ['authorization'];
  const a = auth as EndpointAuthentication | null | undefined;
  if (a?.type === 'api_key') names.push(a.api_key.header_name.toLowerCase());
  return names;
}
