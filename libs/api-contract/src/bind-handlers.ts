import type { Operation } from './operation';

/**
 * Attaches handlers to operations by operationId. Throws (at start-up, and in a unit test) when an
 * operation has no handler, when two handler sets answer the same operation, or when a handler
 * names no operation: a route cannot be served undocumented, nor documented and not served.
 */
export function bindHandlers<H>(
  operations: readonly Operation[],
  handlerSets: readonly Record<string, H>[],
): (Operation & { handler: H })[] {
  const byId = new Map<string, H>();
  const problems: string[] = [];
  for (const set of handlerSets)
    for (const [id, handler] of Object.entries(set)) {
      if (byId.has(id)) problems.push(`${id}: two handlers`);
      byId.set(id, handler);
    }
  const known = new Set(operations.map((op) => op.operationId));
  for (const id of byId.keys()) if (!known.has(id)) problems.push(`${id}: a handler for no operation`);
  const bound = operations.map((op) => {
    const handler = byId.get(op.operationId);
    if (handler === undefined) problems.push(`${op.operationId}: no handler`);
    return { ...op, handler: handler as H };
  });
  if (problems.length > 0) throw new Error(`operations and handlers disagree: ${problems.join('; ')}`);
  return bound;
}
