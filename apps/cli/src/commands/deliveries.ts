import { managementOperations as api, type ResponseOf } from '@hookrail/api-contract';
import type { Command } from 'commander';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../exit-codes';
import { json, localTime, table } from '../output';
import { collect, deliveryStatusOption, positiveInt, sinceTime } from './options';

type Delivery = ResponseOf<typeof api.getEventDelivery>;
type Attempts = ResponseOf<typeof api.listDeliveryAttempts>;

export const DELIVERY_HEADERS = ['created', 'id', 'type', 'endpoint', 'status', 'attempts', 'http'];

export function deliveryRows(deliveries: readonly Delivery[]): string[][] {
  return deliveries.map((d) => [
    localTime(d.created_at),
    d.uid,
    d.event_type,
    d.endpoint_metadata?.name || d.endpoint_id,
    d.status,
    String(d.attempts_made),
    d.last_http_status === null ? '—' : String(d.last_http_status),
  ]);
}

export function registerDeliveries(program: Command, ctx: CliContext): void {
  const deliveries = program.command('deliveries').description('list and show event deliveries');
  registerList(deliveries, ctx);
  registerShow(deliveries, ctx);
  registerRetry(program, ctx);
  registerReplay(program, ctx);
}

interface ListOptions {
  status?: string[];
  endpoint?: string[];
  event?: string;
  since?: string;
  until?: string;
  limit: number;
  json?: boolean;
  quiet?: boolean;
}

function registerList(deliveries: Command, ctx: CliContext): void {
  deliveries
    .command('list')
    .description('the newest deliveries first')
    .addOption(deliveryStatusOption())
    .option('--endpoint <id>', 'only deliveries to this endpoint (repeatable)', collect)
    .option('--event <id>', 'only deliveries of this event')
    .option('--since <time>', 'created at or after (ISO time, or 30m, 2h, 7d ago)', sinceTime)
    .option('--until <time>', 'created at or before (ISO time, or a duration ago)', sinceTime)
    .option('--limit <n>', 'at most this many (default 20, at most 100)', positiveInt, 20)
    .option('--json', 'print the API page as JSON')
    .option('-q, --quiet', 'print only the ids, one per line')
    .action(async (o: ListOptions) => {
      const { call, projectID } = await ctx.session();
      const page = await call(api.listEventDeliveries, {
        params: { projectID },
        query: {
          perPage: String(Math.min(o.limit, 100)),
          status: o.status,
          endpointId: o.endpoint,
          eventId: o.event,
          startDate: o.since,
          endDate: o.until,
        },
      });
      if (o.json) return ctx.output.out(json(page));
      if (o.quiet) return page.content.forEach((x) => ctx.output.out(x.uid));
      if (page.content.length === 0) return ctx.output.out('No deliveries match.');
      for (const line of table(DELIVERY_HEADERS, deliveryRows(page.content))) ctx.output.out(line);
    });
}

function registerShow(deliveries: Command, ctx: CliContext): void {
  deliveries
    .command('show <delivery-id>')
    .description('one delivery and every attempt: status, latency, response')
    .option('--json', 'print the delivery and its attempts as JSON')
    .action(async (deliveryID: string, o: { json?: boolean }) => {
      const { call, projectID } = await ctx.session();
      const params = { projectID, deliveryID };
      const [delivery, attempts] = await Promise.all([
        call(api.getEventDelivery, { params }),
        call(api.listDeliveryAttempts, { params }),
      ]);
      if (o.json) return ctx.output.out(json({ delivery, attempts }));
      printDelivery(ctx, delivery, attempts);
    });
}

function printDelivery(ctx: CliContext, d: Delivery, attempts: Attempts): void {
  ctx.output.out(
    `Delivery ${d.uid}  ${d.event_type}  ${d.status}  to ${d.endpoint_metadata?.name || d.endpoint_id}`,
  );
  if (d.status_reason) ctx.output.out(`Why: ${d.status_reason}`);
  if (d.next_attempt_at) ctx.output.out(`Next attempt: ${localTime(d.next_attempt_at)}`);
  if (attempts.length === 0) return ctx.output.out('No attempt yet.');
  for (const line of table(
    ['at', 'http', 'latency', 'error or response'],
    attempts.map((a) => [
      localTime(a.created_at),
      a.http_status ?? '—',
      `${Math.round(a.latency_ms)} ms`,
      (a.error ?? a.response_data).replace(/\s+/g, ' ').slice(0, 80),
    ]),
  ))
    ctx.output.out(line);
}

function registerRetry(program: Command, ctx: CliContext): void {
  program
    .command('retry <delivery-id>')
    .description(
      'send a failed or discarded delivery again (--now: one still waiting in Retry; --force: any, also a delivered one)',
    )
    .option('--now', 'a delivery in Retry: send it now instead of at its scheduled time')
    .option('--force', 'force resend, whatever its status')
    .option('--json', 'print the delivery as JSON')
    .action(async (deliveryID: string, o: { now?: boolean; force?: boolean; json?: boolean }) => {
      if (o.now && o.force) throw new CliError('--now and --force: choose one', EXIT.usage);
      const { call, projectID } = await ctx.session();
      const params = { projectID, deliveryID };
      const op = o.force
        ? api.forceResendEventDelivery
        : o.now
          ? api.retryEventDeliveryNow
          : api.resendEventDelivery;
      const d = await call(op, { params });
      ctx.output.out(o.json ? json(d) : `Delivery ${d.uid} sent again (${d.status})`);
    });
}

function registerReplay(program: Command, ctx: CliContext): void {
  program
    .command('replay <event-id>')
    .description('replay an event: a new delivery for each subscription it was delivered through')
    .option('--json', 'print the result as JSON')
    .action(async (eventID: string, o: { json?: boolean }) => {
      const { call, projectID } = await ctx.session();
      const r = await call(api.replayEvent, { params: { projectID, eventID } });
      ctx.output.out(
        o.json ? json(r) : `Event ${r.event_id} replayed: ${(r.deliveries ?? []).length} new deliveries`,
      );
    });
}
