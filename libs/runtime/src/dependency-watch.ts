/** What changed for one dependency between two checks. */
export type DependencyChange =
  { kind: 'down'; dependency: string } | { kind: 'recovered'; dependency: string; downForMs: number };

/**
 * Turns periodic up/down checks into transitions, so an outage logs one line when it starts and
 * one "recovered" line when it ends, not a line per check. Pure: the caller passes the clock.
 */
export class DependencyWatch {
  private readonly downSince = new Map<string, number>();

  observe(checks: Record<string, boolean>, nowMs: number): DependencyChange[] {
    const changes: DependencyChange[] = [];
    for (const [dependency, up] of Object.entries(checks)) {
      const since = this.downSince.get(dependency);
      if (!up && since === undefined) {
        this.downSince.set(dependency, nowMs);
        changes.push({ kind: 'down', dependency });
      } else if (up && since !== undefined) {
        this.downSince.delete(dependency);
        changes.push({ kind: 'recovered', dependency, downForMs: nowMs - since });
      }
    }
    return changes;
  }
}
