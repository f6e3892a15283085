/**
 * Reads the last phase's BENCH_TIMELINE files (the events' times and, beside them, each process's
 * CPU every 10 ms) and prints the clusters of slow events with what each process did meanwhile:
 * where a tail comes from.
 *
 *   BENCH_TIMELINE=/tmp/t.txt BENCH_TRAFFIC=api npm run bench
 *   npm run bench:timeline -- /tmp/t.txt [over-ms, default 15] [smallest cluster, default 3]
 */
import { readFileSync } from 'node:fs';
import { parseCpu, parseTimeline, slowClusters } from './support/timeline-clusters';

const [file, over = '15', smallest = '3'] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run bench:timeline -- <BENCH_TIMELINE file> [over-ms] [smallest cluster]');
  process.exit(2);
}
const events = parseTimeline(readFileSync(file, 'utf8'));
const cpu = parseCpu(readFileSync(`${file}.cpu`, 'utf8'));
const clusters = slowClusters(events, cpu, Number(over));
const slow = clusters.reduce((sum, c) => sum + c.events, 0);
console.log(`${events.length} events, ${slow} slower than ${over} ms, in ${clusters.length} clusters`);
for (const c of clusters.filter((c) => c.events >= Number(smallest))) {
  const busy = Object.entries(c.cpuMsPerSecond)
    .filter(([, ms]) => ms >= 100)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
  console.log(
    `  ${c.from}–${c.to} ms: ${c.events} events, up to ${c.worstMs} ms (accepted after up to ` +
      `${c.worstAcceptMs} ms); CPU ms/s over 100: ${busy || 'none'}`,
  );
}
