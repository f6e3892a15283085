import type { SignatureConfig } from '@hookrail/api-contract';

/** What a scheme signs: the exact body bytes sent, with the endpoint's valid secrets. */
export interface SignInput {
  body: string | Buffer;
  /** The secrets that may sign now, oldest first (activeSecrets); never empty. */
  secrets: string[];
  config: SignatureConfig;
  /** Stable message id: the delivery id (the meta event id for meta events). */
  msgId: string;
  /** When this attempt is sent, Unix seconds. */
  timestampSeconds: number;
}

/** What a receiver checks: the body and headers received, with every secret it accepts. */
export interface VerifyInput {
  body: string | Buffer;
  /** Received headers, names lower-case. */
  headers: Readonly<Record<string, string | undefined>>;
  secrets: string[];
  config: SignatureConfig;
  /** The receiver's clock, Unix seconds: timestamped schemes reject what is outside the replay window. */
  nowSeconds: number;
}

/** Where users learn to verify a scheme, in docs/verifying-webhooks.md. */
export interface SchemeDocs {
  /** Its section's heading. */
  heading: string;
  /** The start of its verifier in each language shown (the files of docs/verify/, included in the page). */
  verifiers: { node: string; python: string; go: string };
}

/** One signature scheme: everything Hookrail knows about it, so a new scheme is one module. */
export interface SignatureScheme<Name extends string = string> {
  readonly name: Name;
  /** Whether a request carries this scheme's signature, by the project's config and the endpoint's `advanced_signatures`. */
  appliesTo(target: { config: SignatureConfig; advanced: boolean }): boolean;
  /** The headers it writes, whether or not it applies: a forwarded header must never pass for one. */
  headerNames(config: SignatureConfig): string[];
  sign(input: SignInput): Record<string, string>;
  verify(input: VerifyInput): boolean;
  readonly docs: SchemeDocs;
}
