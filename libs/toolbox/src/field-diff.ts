/** What a field whose name says it holds a credential shows instead of its value. */
export const REDACTED = '[redacted]';

/** Names of fields holding credentials: their values never leave in a diff, only that they changed. */
const SECRET_NAME = /secret|password|passwd|token|credential|private|authorization|api_?key|^key$|^value$/i;

export type FieldChanges = Record<string, { before: unknown; after: unknown }>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value with every field named like a credential replaced by REDACTED, at any depth. */
export function redactSecrets(value: unknown, name = ''): unknown {
  if (name && SECRET_NAME.test(name) && value !== null && value !== undefined && value !== '')
    return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactSecrets(v, k)]));
}

/**
 * The fields that differ between two objects, by dotted path (`config.retry.duration`), each with
 * its value before and after, credentials redacted (a rolled secret shows as changed, not as what it
 * was or became). Arrays compare whole; `ignore` names fields that always change (`updated_at`).
 */
export function fieldChanges(before: unknown, after: unknown, ignore: ReadonlySet<string>): FieldChanges {
  const out: FieldChanges = {};
  const walk = (b: unknown, a: unknown, path: string, name: string) => {
    if (ignore.has(name)) return;
    if (isPlainObject(b) && isPlainObject(a)) {
      for (const k of new Set([...Object.keys(b), ...Object.keys(a)]))
        walk(b[k], a[k], path ? `${path}.${k}` : k, k);
      return;
    }
    if (JSON.stringify(b) === JSON.stringify(a)) return;
    out[path] = { before: redactSecrets(b ?? null, name), after: redactSecrets(a ?? null, name) };
  };
  walk(before, after, '', '');
  return out;
}
