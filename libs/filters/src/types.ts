/** A MongoDB-style filter: field paths (nested or dotted) to a value or an operator object. */
export type Filter = Record<string, unknown>;

export const COMPARISON_OPERATORS = [
  '$eq',
  '$neq',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exist',
  '$regex',
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isComparisonOperator(key: string): key is ComparisonOperator {
  return (COMPARISON_OPERATORS as readonly string[]).includes(key);
}

export function isLogicalOperator(key: string): key is '$or' | '$and' {
  return key === '$or' || key === '$and';
}

/**
 * `{ $gt: 1, $lt: 5 }`: a non-empty object whose keys are all field operators, kept as one leaf.
 * `{ $or: [...] }` under a field is not one: it is a nested filter applied under that prefix.
 */
export function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$') && !isLogicalOperator(k));
}
