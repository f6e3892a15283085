import type { RequestHandler } from 'express';
import type { Operation } from '@hookrail/api-contract';
import { fail } from '@hookrail/domain';

/**
 * Answers a request no route took: 405 with `Allow` when its path is an operation's under another
 * method, else passes on (to the 404). Paths are matched segment by segment, `:name` taking one.
 */
export function methodNotAllowed(operations: readonly Pick<Operation, 'method' | 'path'>[]): RequestHandler {
  const routes = operations.map((op) => ({
    method: op.method.toUpperCase(),
    pattern: new RegExp(
      `^${op.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`,
    ),
  }));
  return (req, res, next) => {
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(req.path)).map((r) => r.method))];
    if (allowed.length === 0) return next();
    res.setHeader('Allow', allowed.join(', '));
    res
      .status(405)
      .json(fail(`${req.method} is not allowed on ${req.baseUrl}${req.path}: use ${allowed.join(', ')}`));
  };
}
