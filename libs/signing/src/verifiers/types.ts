import type { SignatureEncoding, SignatureHash } from '@hookrail/api-contract';

/** A source's `verifier` as stored (field names of the API; secrets possibly sealed). */
export interface VerifierConfig {
  type: 'noop' | 'hmac' | 'basic_auth' | 'api_key';
  hmac?: { header?: string; hash?: SignatureHash; encoding?: SignatureEncoding; secret: string };
  basic_auth?: { username: string; password: string };
  api_key?: { header_name: string; header_value: string };
}

/** What a verifier sees of a request: lower-case header names and the exact body bytes. */
export interface VerifiableRequest {
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
}

export type Verification = { ok: true } | { ok: false; reason: string };

/** Opens a sealed secret (SecretBox.open); unsealed values pass through. */
export type OpenSecret = (stored: string) => string;
