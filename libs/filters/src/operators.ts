import type { ComparisonOperator } from './types';
import { regexTest } from './regex';

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const bo = b as Record<string, unknown>;
  const ao = a as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

/** Equal, or — for an array field — one of its elements is equal (membership). */
function equalsOrContains(field: unknown, expected: unknown): boolean {
  if (deepEqual(field, expected)) return true;
  return Array.isArray(field) && field.some((e) => deepEqual(e, expected));
}

function compare(field: unknown, expected: unknown, test: (c: number) => boolean): boolean {
  if (Array.isArray(field)) return field.some((e) => compare(e, expected, test));
  if (typeof field === 'number' && typeof expected === 'number') return test(field - expected);
  if (typeof field === 'string' && typeof expected === 'string') {
    return test(field < expected ? -1 : field > expected ? 1 : 0);
  }
  return false;
}

function matchesRegex(field: unknown, pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  if (Array.isArray(field)) return field.some((e) => matchesRegex(e, pattern));
  return typeof field === 'string' && regexTest(pattern, field);
}

/**
 * Applies one operator to the values found at a path (`candidates`; empty = missing field).
 * Positive operators need one candidate to match, so a missing field never matches them; the
 * negative ones (`$neq`, `$nin`, `$exist:false`) need no candidate to match, so it always does.
 */
export function applyOperator(op: ComparisonOperator, candidates: unknown[], arg: unknown): boolean {
  switch (op) {
    case '$eq':
      return candidates.some((c) => equalsOrContains(c, arg));
    case '$neq':
      return !candidates.some((c) => equalsOrContains(c, arg));
    case '$gt':
      return candidates.some((c) => compare(c, arg, (d) => d > 0));
    case '$gte':
      return candidates.some((c) => compare(c, arg, (d) => d >= 0));
    case '$lt':
      return candidates.some((c) => compare(c, arg, (d) => d < 0));
    case '$lte':
      return candidates.some((c) => compare(c, arg, (d) => d <= 0));
    case '$in':
      return Array.isArray(arg) && candidates.some((c) => arg.some((a) => equalsOrContains(c, a)));
    case '$nin':
      return !Array.isArray(arg) || !candidates.some((c) => arg.some((a) => equalsOrContains(c, a)));
    case '$exist':
      return candidates.length > 0 === (arg !== false);
    case '$regex':
      return candidates.some((c) => matchesRegex(c, arg));
  }
}
