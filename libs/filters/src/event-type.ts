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
