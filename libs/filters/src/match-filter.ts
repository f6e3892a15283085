import { applyOperator } from './operators';
import { resolvePath } from './resolve-path';
import {
  type Filter,
  isComparisonOperator,
  isLogicalOperator,
  isOperatorObject,
  isPlainObject,
} from './types';

/**
 * Whether `doc` satisfies a MongoDB-style filter (nested or already flattened). An empty or
 * missing filter matches everything. Unknown operators never match: validate with
 * `validateFilter` before storing a filter.
 */
export function matchFilter(filter: Filter | null | undefined, doc: unknown): boolean {
  return filter ? matchAt(filter, doc, '') : true;
}

function matchAt(filter: Filter, doc: unknown, prefix: string): boolean {
  return Object.entries(filter).every(([key, cond]) => {
    if (isLogicalOperator(key)) {
      if (!Array.isArray(cond)) return false;
      const branch = (b: unknown) => isPlainObject(b) && matchAt(b, doc, prefix);
      return key === '$or' ? cond.some(branch) : cond.every(branch);
    }
    const path = prefix ? `${prefix}.${key}` : key;
    if (isOperatorObject(cond)) {
      const candidates = resolvePath(doc, path);
      return Object.entries(cond).every(
        ([op, arg]) => isComparisonOperator(op) && applyOperator(op, candidates, arg),
      );
    }
    if (isPlainObject(cond) && Object.keys(cond).length > 0) return matchAt(cond, doc, path);
    return applyOperator('$eq', resolvePath(doc, path), cond);
  });
}
