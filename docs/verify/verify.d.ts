// Types of docs/verify/verify.js, for TypeScript callers (tools/demo.ts).
export interface VersionOptions {
  algorithm?: 'sha256' | 'sha512';
  encoding?: 'hex' | 'base64';
}
export interface TimedOptions {
  toleranceSeconds?: number;
  now?: number;
}
export function verifySimple(
  rawBody: Buffer,
  signature: string | undefined,
  secrets: string[],
  options?: VersionOptions,
): boolean;
export function verifyAdvanced(
  rawBody: Buffer,
  header: string | undefined,
  secrets: string[],
  options?: VersionOptions & TimedOptions & { version?: number },
): boolean;
export function verifyStandardWebhooks(
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  secrets: string[],
  options?: TimedOptions,
): boolean;
