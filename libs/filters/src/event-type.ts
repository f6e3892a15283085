/**
 * Whether an event type is selected by a subscription's `event_types`: exact match, `*` for
 * everything, or a trailing wildcard (`invoice.*` matches `invoice.paid`, not `invoice`).
 * No patterns at all selects everything, like `["*"]`.
 */
export function matchEventType(patterns: readonly string[] | null | undefined, type: string): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((p) => {
    if (p === '*' || p === type) return true;
    return p.endsWith('.*') && type.startsWith(p.slice(0, -1));
  });
}

/**
 * Why a type an event is sent with is not an event type: `*` is the wildcard of subscriptions'
 * patterns, and an event sent as `invoice.*` would go out with `X-Hookrail-Event-Type: invoice.*`.
 * Undefined for a concrete type.
 */
export function eventTypePatternProblem(type: string): string | undefined {
  if (!type.includes('*')) return undefined;
  return `${JSON.stringify(type)} is a pattern, not an event type: send one concrete type (invoice.paid); patterns such as invoice.* belong in a subscription's filter_config.event_types`;
}
