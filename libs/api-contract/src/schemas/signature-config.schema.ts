import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const SIGNATURE_HASHES = ['SHA256', 'SHA512'] as const;
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;

/** A string of a fixed set as one JSON Schema `enum` (how the gateway documents and validates them). */
const oneOf = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values] });

/** One signature version: the HMAC's hash and the signature's encoding. */
export const SignatureVersionSchema = Type.Object(
  { hash: oneOf(SIGNATURE_HASHES), encoding: oneOf(SIGNATURE_ENCODINGS) },
  { additionalProperties: false },
);
export type SignatureVersion = Static<typeof SignatureVersionSchema>;
export type SignatureHash = SignatureVersion['hash'];
export type SignatureEncoding = SignatureVersion['encoding'];

/**
 * A project's `config.signature` around a version shape: the store and the signature schemes take
 * SignatureVersionSchema, the gateway's API one that also accepts the fields it ignores.
 */
export function signatureConfigOf<V extends TSchema>(version: V) {
  return Type.Object(
    {
      header: Type.String({ minLength: 1, maxLength: 100 }),
      versions: Type.Array(version, { minItems: 1, maxItems: 10 }),
      standard_webhooks: Type.Boolean(),
    },
    { additionalProperties: false },
  );
}

export const SignatureConfigSchema = signatureConfigOf(SignatureVersionSchema);
export type SignatureConfig = Static<typeof SignatureConfigSchema>;

export const DEFAULT_SIGNATURE_CONFIG: SignatureConfig = {
  header: 'X-Hookrail-Signature',
  versions: [{ hash: 'SHA256', encoding: 'hex' }],
  standard_webhooks: false,
};

/** The configured versions, or the default one where none is configured. */
export function signatureVersions(config: SignatureConfig): SignatureVersion[] {
  return config.versions.length > 0 ? config.versions : DEFAULT_SIGNATURE_CONFIG.versions;
}
