import { managementOperations as api, type Caller, type ResponseOf } from '@hookrail/api-contract';
import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliContext } from '../context';
import { localTime } from '../output';
import { collect, deliveryStatusOption, positiveInt } from './options';

type Delivery = ResponseOf<typeof api.getEventDelivery>;

/** How many of the newest deliveries the first look prints, before following. */
const BACKLOG = 10;
/** Deliveries remembered to tell a change from a new one (the oldest forgotten first). */
const REMEMBERED = 10_000;

interface TailOptions {
  status?: string[];
  endpoint?: string[];
  type?: string;
  interval: number;
  count?: number;
  json?: boolean;
}

/** The latency of the delivery's last attempt, when it has one. */
async function lastLatency(call: Caller, projectID: string, d: Delivery): Promise<number | null> {
  if (d.attempts_made === 0) return null;
  const attempts = await call(api.listDeliveryAttempts, { params: { projectID, deliveryID: d.uid } });
  const last = attempts.at(-1);
  return last ? Math.round(last.latency_ms) : null;
}

/**
 * Follows the project's deliveries: the newest first, then each new delivery and each change of
 * status or attempts, oldest first, by reading the deliveries list every `--interval` seconds.
 */
export function registerTail(program: Command, ctx: CliContext): void {
  program
    .command('tail')
    .description('follow deliveries as they are made and retried (Ctrl-C stops)')
    .addOption(deliveryStatusOption())
    .option('--endpoint <id>', 'only deliveries to this endpoint (repeatable)', collect)
    .option('--type <event-type>', 'only deliveries of this event type')
    .option('--interval <seconds>', 'how often to look (default 2)', positiveInt, 2)
    .option('--count <n>', 'stop after printing this many lines', positiveInt)
    .option('--json', 'one JSON document per line: the delivery and its last latency')
    .action(async (o: TailOptions) => {
      const { call, projectID } = await ctx.session();
      const seen = new Map<string, string>();
      let printed = 0;
      let first = true;
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      while (!stop.signal.aborted) {
        const page = await call(api.listEventDeliveries, {
          params: { projectID },
          query: { perPage: '50', status: o.status, endpointId: o.endpoint },
        });
        const rows = page.content.filter((d) => !o.type || d.event_type === o.type).reverse();
        const shown = first ? rows.slice(-BACKLOG) : rows;
        for (const d of rows) {
          const state = `${d.status}|${d.attempts_made}`;
          if (seen.get(d.uid) === state) continue;
          seen.delete(d.uid);
          seen.set(d.uid, state);
          if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value!);
          if (!shown.includes(d)) continue;
          const latency = await lastLatency(call, projectID, d);
          ctx.output.out(
            o.json
              ? JSON.stringify({ ...d, latency_ms: latency })
              : [
                  localTime(d.updated_at),
                  d.status.padEnd(9),
                  d.event_type,
                  `→ ${d.endpoint_metadata?.name || d.endpoint_id}`,
                  `attempts ${d.attempts_made}`,
                  d.last_http_status === null ? '' : `http ${d.last_http_status}`,
                  latency === null ? '' : `${latency} ms`,
                  d.uid,
                ]
                  .filter(Boolean)
                  .join('  '),
          );
          if (o.count !== undefined && ++printed >= o.count) return;
        }
        first = false;
        await sleep(o.interval * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    });
}
