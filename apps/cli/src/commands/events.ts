import { EVENT_STATUSES, managementOperations as api } from '@hookrail/api-contract';
import { Option, type Command } from 'commander';
import type { CliContext } from '../context';
import { json, localTime, table } from '../output';
import { collect, positiveInt, sinceTime } from './options';
import { deliveryRows, DELIVERY_HEADERS } from './deliveries';

export function registerEvents(program: Command, ctx: CliContext): void {
  const events = program.command('events').description('list and show events');

  events
    .command('list')
    .description('the newest events first')
    .option('--type <event-type>', 'only events of this type')
    .option('--endpoint <id>', 'only events that targeted this endpoint (repeatable)', collect)
    .option('--source <id>', 'only events from this source (repeatable)', collect)
    .addOption(new Option('--status <status>', 'only events in this status').choices(EVENT_STATUSES))
    .option('--since <time>', 'created at or after (ISO time, or 30m, 2h, 7d ago)', sinceTime)
    .option('--until <time>', 'created at or before (ISO time, or a duration ago)', sinceTime)
    .option('--search <words>', 'payload contains every word (ignoring case)')
    .option('--limit <n>', 'at most this many (default 20, at most 100)', positiveInt, 20)
    .option('--json', 'print the API page as JSON')
    .option('-q, --quiet', 'print only the ids, one per line')
    .action(
      async (o: {
        type?: string;
        endpoint?: string[];
        source?: string[];
        status?: string;
        since?: string;
        until?: string;
        search?: string;
        limit: number;
        json?: boolean;
        quiet?: boolean;
      }) => {
        const { call, projectID } = await ctx.session();
        const page = await call(api.listEvents, {
          params: { projectID },
          query: {
            perPage: String(Math.min(o.limit, 100)),
            event_type: o.type,
            endpointId: o.endpoint,
            sourceId: o.source,
            status: o.status,
            startDate: o.since,
            endDate: o.until,
            query: o.search,
          },
        });
        if (o.json) return ctx.output.out(json(page));
        if (o.quiet) return page.content.forEach((x) => ctx.output.out(x.uid));
        if (page.content.length === 0) return ctx.output.out('No events match.');
        for (const line of table(
          ['created', 'id', 'type', 'status', 'endpoints'],
          page.content.map((e) => [
            localTime(e.created_at),
            e.uid,
            e.event_type,
            e.status,
            e.endpoint_metadata.map((m) => m.name || m.uid).join(', ') || '—',
          ]),
        ))
          ctx.output.out(line);
      },
    );

  events
    .command('show <event-id>')
    .description('one event: its payload and its deliveries')
    .option('--json', 'print the event and its deliveries as JSON')
    .action(async (eventID: string, o: { json?: boolean }) => {
      const { call, projectID } = await ctx.session();
      const event = await call(api.getEvent, { params: { projectID, eventID } });
      const deliveries = await call(api.listEventDeliveries, {
        params: { projectID },
        query: { eventId: eventID, perPage: '100' },
      });
      if (o.json) return ctx.output.out(json({ event, deliveries: deliveries.content }));
      ctx.output.out(
        `Event ${event.uid}  ${event.event_type}  ${event.status}  ${localTime(event.created_at)}`,
      );
      if (event.status_reason) ctx.output.out(`Why: ${event.status_reason}`);
      ctx.output.out(`Payload: ${JSON.stringify(event.data)}`);
      ctx.output.out('');
      for (const line of table(DELIVERY_HEADERS, deliveryRows(deliveries.content))) ctx.output.out(line);
    });
}
