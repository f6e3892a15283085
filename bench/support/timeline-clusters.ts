/** One event of a BENCH_TIMELINE file: ms from the phase's start until sent, accepted, delivered. */
export interface TimelineEvent {
  sent: number;
  accepted: number;
  delivered: number;
}

/** Slow events close together in time, with what each process did meanwhile. */
export interface SlowCluster {
  from: number;
  to: number;
  events: number;
  worstMs: number;
  worstAcceptMs: number;
  /** Each process's CPU over the cluster (and the 50 ms before it), in ms per second. */
  cpuMsPerSecond: Record<string, number>;
}

/** The events that have all three times (an event never accepted or delivered has `-`). */
export function parseTimeline(text: string): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [, sent, accepted, delivered] = line.split(' ');
    if (accepted === '-' || delivered === '-') continue;
    events.push({ sent: Number(sent), accepted: Number(accepted), delivered: Number(delivered) });
  }
  return events;
}

/** The `.cpu` file beside it (CpuTimeline): the process names, then `[t, ms…]` per interval. */
export function parseCpu(text: string): { names: string[]; rows: number[][] } {
  const [header = '', ...lines] = text.split('\n');
  const names = header
    .replace(/^# t /, '')
    .replace(/ \(.*$/, '')
    .split(' ');
  return { names, rows: lines.filter(Boolean).map((l) => l.split(' ').map(Number)) };
}

/** Slow events go together when less than this apart (a stall holds every event sent during it). */
const GAP_MS = 100;
/** A stall starts a little before the first event it slows. */
const LEAD_MS = 50;

/**
 * Groups the events slower than `overMs` (sent → delivered) into clusters and gives each cluster
 * every process's CPU rate over it: a stall shows as one process taking most of a core.
 */
export function slowClusters(
  events: TimelineEvent[],
  cpu: { names: string[]; rows: number[][] },
  overMs: number,
): SlowCluster[] {
  const slow = events.filter((e) => e.delivered - e.sent > overMs).sort((a, b) => a.sent - b.sent);
  const groups: TimelineEvent[][] = [];
  for (const e of slow) {
    const last = groups.at(-1);
    if (last && e.sent - last[last.length - 1].sent < GAP_MS) last.push(e);
    else groups.push([e]);
  }
  return groups.map((group) => {
    const from = group[0].sent;
    const to = group[group.length - 1].sent;
    const rows = cpu.rows.filter(([t]) => t >= from - LEAD_MS && t <= to);
    const spanSeconds = Math.max(10, to - from + LEAD_MS) / 1000;
    const cpuMsPerSecond = Object.fromEntries(
      cpu.names.map((name, i) => [
        name,
        Math.round(rows.reduce((sum, row) => sum + (row[i + 1] ?? 0), 0) / spanSeconds),
      ]),
    );
    return {
      from,
      to,
      events: group.length,
      worstMs: Math.max(...group.map((e) => e.delivered - e.sent)),
      worstAcceptMs: Math.max(...group.map((e) => e.accepted - e.sent)),
      cpuMsPerSecond,
    };
  });
}
