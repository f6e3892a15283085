import { isPlainObject } from './types';

/**
 * Every value found at a dot path. Arrays on the way are traversed (`items.id` over an array of
 * items gives each item's id), as MongoDB does; a literal key containing dots wins over nesting.
 * An empty result means the field is missing.
 */
export function resolvePath(doc: unknown, path: string): unknown[] {
  return resolve(doc, path.split('.'));
}

function resolve(value: unknown, segments: string[]): unknown[] {
  if (segments.length === 0) return [value];
  if (Array.isArray(value)) {
    const index = /^\d+$/.test(segments[0]) ? Number(segments[0]) : -1;
    if (index >= 0) return index < value.length ? resolve(value[index], segments.slice(1)) : [];
    return value.flatMap((item) => resolve(item, segments));
  }
  if (!isPlainObject(value)) return [];
  const whole = segments.join('.');
  if (segments.length > 1 && Object.hasOwn(value, whole)) return [value[whole]];
  const [head, ...rest] = segments;
  return Object.hasOwn(value, head) ? resolve(value[head], rest) : [];
}
