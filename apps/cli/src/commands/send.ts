import { managementOperations as api } from '@hookrail/api-contract';
import type { Command } from 'commander';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../exit-codes';
import { json } from '../output';
import { jsonInput } from './json-input';

export function registerSend(program: Command, ctx: CliContext): void {
  program
    .command('send <event-type>')
    .description(
      'send an event: to one endpoint, to the endpoints of an owner, or to every matching subscription',
    )
    .option('--data <json>', 'the event data as JSON text')
    .option('--file <path>', 'a file holding the event data as JSON (- for standard input)')
    .option('--endpoint <id>', 'to this endpoint')
    .option('--owner <id>', 'to every endpoint of this owner (fan-out)')
    .option('--broadcast', 'to every subscription that matches the type')
    .option('--idempotency-key <key>', 'the same key again within the window is accepted once')
    .option('--json', 'print the accepted event as JSON')
    .option('-q, --quiet', 'print only the event id')
    .action(
      async (
        eventType: string,
        o: {
          data?: string;
          file?: string;
          endpoint?: string;
          owner?: string;
          broadcast?: boolean;
          idempotencyKey?: string;
          json?: boolean;
          quiet?: boolean;
        },
      ) => {
        const targets = [o.endpoint !== undefined, o.owner !== undefined, o.broadcast === true].filter(
          Boolean,
        ).length;
        if (targets !== 1)
          throw new CliError('the target: give exactly one of --endpoint, --owner, --broadcast', EXIT.usage);
        const data = await jsonInput(o);
        const { call, projectID } = await ctx.session();
        const common = {
          event_type: eventType,
          data,
          ...(o.idempotencyKey ? { idempotency_key: o.idempotencyKey } : {}),
        };
        const params = { projectID };
        const event = o.endpoint
          ? await call(api.createEvent, { params, body: { ...common, endpoint_id: o.endpoint } })
          : o.owner
            ? await call(api.fanoutEvent, { params, body: { ...common, owner_id: o.owner } })
            : await call(api.broadcastEvent, { params, body: common });
        ctx.output.out(
          o.json ? json(event) : o.quiet ? event.uid : `Event ${event.uid} accepted (${event.event_type})`,
        );
      },
    );
}
