import { fetchOAuth2Token, type HttpClient, type OAuth2Config } from '@hookrail/outbound';
import { ValidationError } from '@hookrail/domain';
import type { OAuth2TestBody, OAuth2TestResponse } from '@hookrail/api-contract';

type OAuth2Input = OAuth2TestBody['oauth2'];

/** A signing key may come as the JWK object or, all members being strings here, as its JSON text. */
function signingKeyOf(input: OAuth2Input): OAuth2Config['signing_key'] {
  if (typeof input.signing_key !== 'string') return input.signing_key;
  try {
    const parsed: unknown = JSON.parse(input.signing_key);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as OAuth2Config['signing_key'];
  } catch {
    // reported below
  }
  throw new ValidationError('oauth2.signing_key is not a JWK', [
    { field: 'oauth2.signing_key', message: 'must be a JWK object (or its JSON text)' },
  ]);
}

/**
 * The token request exactly as delivery performs it (libs/outbound). A failed
 * exchange is a result (HTTP 200, success false), not an error.
 */
export async function testOAuth2(http: HttpClient, input: OAuth2Input): Promise<OAuth2TestResponse> {
  const result = await fetchOAuth2Token({ ...input, signing_key: signingKeyOf(input) }, { http });
  if (result.success)
    return {
      success: true,
      message: 'token obtained',
      error: '',
      access_token: result.access_token,
      token_type: result.token_type,
      expires_at: result.expires_at,
    };
  return {
    success: false,
    message: result.message,
    error: result.error,
    access_token: '',
    token_type: '',
    expires_at: '',
  };
}
