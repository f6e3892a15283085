/** A JWK as stored on the endpoint (only the members a signing key may carry). */
export interface OAuth2SigningKey {
  kty?: string;
  kid?: string;
  crv?: string;
  x?: string;
  y?: string;
  d?: string;
  n?: string;
  e?: string;
  p?: string;
  q?: string;
  dp?: string;
  dq?: string;
  qi?: string;
  k?: string;
}

/** Endpoint `authentication.oauth2`, with secrets already opened. */
export interface OAuth2Config {
  url: string;
  client_id: string;
  /** `shared_secret` (default) sends client_secret; `client_assertion` sends a signed JWT. */
  authentication_type?: 'shared_secret' | 'client_assertion' | string;
  client_secret?: string;
  grant_type?: string;
  scope?: string;
  audience?: string;
  issuer?: string;
  subject?: string;
  signing_algorithm?: string;
  signing_key?: OAuth2SigningKey;
  /** Names of the token-response fields, when the server does not use the standard ones. */
  field_mapping?: { access_token?: string; token_type?: string; expires_in?: string };
  /** Unit of the token response's expires_in: seconds (default), milliseconds, minutes, hours. */
  expiry_time_unit?: string;
}

export type OAuth2FailureKind =
  'invalid_config' | 'request_failed' | 'token_endpoint_error' | 'invalid_response';

export type OAuth2TokenResult =
  | {
      success: true;
      access_token: string;
      token_type: string;
      /** RFC 3339. */
      expires_at: string;
      expiresAtMs: number;
    }
  | { success: false; error: OAuth2FailureKind; message: string };
