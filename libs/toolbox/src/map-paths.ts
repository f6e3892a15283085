type Json = Record<string, unknown>;

/**
 * A deep copy of `obj` with `fn` applied to the string at each dotted path that exists: how
 * credentials kept inside user objects are sealed on write and opened on read.
 */
export function mapPaths<T>(obj: T, paths: readonly string[], fn: (value: string) => string): T {
  if (obj === null || obj === undefined) return obj;
  const copy = structuredClone(obj) as Json;
  for (const path of paths) {
    const parts = path.split('.');
    let node: unknown = copy;
    for (const part of parts.slice(0, -1))
      node = node && typeof node === 'object' ? (node as Json)[part] : undefined;
    const last = parts[parts.length - 1];
    if (node && typeof node === 'object' && typeof (node as Json)[last] === 'string')
      (node as Json)[last] = fn((node as Json)[last] as string);
  }
  return copy as T;
}
