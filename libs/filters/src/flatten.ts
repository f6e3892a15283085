import { type Filter, isLogicalOperator, isOperatorObject, isPlainObject } from './types';

/**
 * Flattens nested objects to dot paths: `{a: {b: 1}}` → `{'a.b': 1}`. Operator objects
 * (`{$gt: 1}`), arrays and scalars are leaves. `$or`/`$and` keep their array, each branch flattened
 * under the same prefix; two logical operators landing on the same key are combined with `$and`.
 */
export function flatten(obj: Filter, prefix = ''): Filter {
  const out: Filter = {};
  for (const [key, value] of Object.entries(obj)) {
    if (isLogicalOperator(key) && Array.isArray(value)) {
      const branches = value.map((b) => (isPlainObject(b) ? flatten(b, prefix) : b));
      addLogical(out, key, branches);
      continue;
    }
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && !isOperatorObject(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(flatten(value, path))) {
        if (isLogicalOperator(k)) addLogical(out, k, v as unknown[]);
        else out[k] = v;
      }
    } else {
      out[path] = value;
    }
  }
  return out;
}

function addLogical(out: Filter, op: '$or' | '$and', branches: unknown[]): void {
  if (out[op] === undefined) {
    out[op] = branches;
  } else if (op === '$and') {
    out.$and = [...(out.$and as unknown[]), ...branches];
  } else {
    out.$and = [...((out.$and as unknown[] | undefined) ?? []), { $or: branches }];
  }
}
