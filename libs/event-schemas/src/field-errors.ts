import type { ErrorObject } from 'ajv';
import type { FieldError } from '@hookrail/domain';

/** ajv's `/pub_sub/sqs` pointer as the dotted field name users see: `pub_sub.sqs`. */
function fieldOf(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.length > 0 ? parts.join('.') : 'body';
}

function toFieldError(e: ErrorObject): FieldError | undefined {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
    case 'anyOf':
      return undefined; // the failing branch's own error says what is wrong
    case 'required':
      return { field: fieldOf(e.instancePath, String(p.missingProperty)), message: 'is required' };
    case 'dependencies':
      return {
        field: fieldOf(e.instancePath, String(p.missingProperty)),
        message: `is required with ${String(p.property)}`,
      };
    case 'additionalProperties':
      return { field: fieldOf(e.instancePath, String(p.additionalProperty)), message: 'is not allowed' };
    case 'enum':
      return {
        field: fieldOf(e.instancePath),
        message: `must be one of: ${(p.allowedValues as unknown[]).filter((v) => v !== null).join(', ')}`,
      };
    case 'const':
      return { field: fieldOf(e.instancePath), message: `must be ${JSON.stringify(p.allowedValue)}` };
    default:
      return { field: fieldOf(e.instancePath), message: e.message ?? 'is invalid' };
  }
}

/**
 * ajv's errors as field errors, one per field and message (`body` is the value itself): request
 * bodies, the catalog's schema checks and event payloads at intake all read them this way.
 */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const fe = toFieldError(e);
    if (!fe) continue;
    const key = `${fe.field}|${fe.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(fe);
  }
  return out;
}
