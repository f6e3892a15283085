/** RFC 3339 UTC with milliseconds, the only timestamp format on the wire. */
export function toTimestamp(date: Date | number): string {
  return new Date(date).toISOString();
}

export function nullableTimestamp(date: Date | number | null | undefined): string | null {
  return date === null || date === undefined ? null : toTimestamp(date);
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;
const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Parses "30", "30s", "5m", "1h", "1d" (seconds when no unit). Returns undefined when malformed. */
export function parseDurationSeconds(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  const m = DURATION.exec(input.trim());
  if (!m) return undefined;
  return Number(m[1]) * UNIT_SECONDS[m[2] ?? 's'];
}
