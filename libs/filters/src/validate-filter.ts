import type { FieldError } from '@hookrail/domain';
import {
  COMPARISON_OPERATORS,
  type Filter,
  isComparisonOperator,
  isLogicalOperator,
  isOperatorObject,
  isPlainObject,
} from './types';
import { regexProblem } from './regex';

/**
 * Field errors for a filter the API should refuse with 400: unknown operators, operator
 * arguments of the wrong type, invalid regular expressions, operators mixed with field names.
 * `base` prefixes every error field, e.g. `filter_config.filter.body`.
 */
export function validateFilter(filter: unknown, base = 'filter'): FieldError[] {
  if (!isPlainObject(filter)) return [{ field: base, message: 'must be an object' }];
  const errors: FieldError[] = [];
  visit(filter, base, errors);
  return errors;
}

function visit(filter: Filter, at: string, errors: FieldError[]): void {
  for (const [key, value] of Object.entries(filter)) {
    const field = `${at}.${key}`;
    if (isLogicalOperator(key)) {
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPlainObject)) {
        errors.push({ field, message: 'must be a non-empty array of filter objects' });
      } else {
        value.forEach((branch, i) => visit(branch, `${field}.${i}`, errors));
      }
    } else if (key.startsWith('$')) {
      const message = isComparisonOperator(key) ? 'must be applied to a field' : unknownOperator(key);
      errors.push({ field, message });
    } else if (isOperatorObject(value)) {
      for (const [op, arg] of Object.entries(value)) checkOperator(op, arg, `${field}.${op}`, errors);
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      const fieldOps = keys.filter((k) => k.startsWith('$') && !isLogicalOperator(k));
      if (fieldOps.length > 0 && fieldOps.length < keys.length) {
        errors.push({ field, message: 'cannot mix operators and field names in one object' });
      } else {
        visit(value, field, errors);
      }
    }
  }
}

function checkOperator(op: string, arg: unknown, field: string, errors: FieldError[]): void {
  if (!isComparisonOperator(op)) {
    errors.push({ field, message: unknownOperator(op) });
    return;
  }
  const problem = argumentProblem(op, arg);
  if (problem) errors.push({ field, message: problem });
}

function argumentProblem(op: string, arg: unknown): string | undefined {
  switch (op) {
    case '$in':
    case '$nin':
      return Array.isArray(arg) ? undefined : 'must be an array';
    case '$exist':
      return typeof arg === 'boolean' ? undefined : 'must be a boolean';
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof arg === 'number' || typeof arg === 'string' ? undefined : 'must be a number or a string';
    case '$regex':
      return typeof arg === 'string' ? regexProblem(arg) : 'must be a string';
    default:
      return undefined;
  }
}

function unknownOperator(op: string): string {
  return `unknown operator ${op}; use one of ${[...COMPARISON_OPERATORS, '$or', '$and'].join(' ')}`;
}
