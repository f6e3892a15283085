import { managementOperations as api, type Caller } from '@hookrail/api-contract';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../exit-codes';
import { positiveInt } from './options';
import { defaultListenerName, ensureListenTarget } from '../listen/listen-endpoint';
import { listenLoop } from '../listen/listen-loop';
import { listenReporter, type ListenReporter } from '../listen/listen-report';

/** `<local-url>`: any http(s) URL (the private-address guard is the dispatcher's, not the CLI's). */
export function localUrlArg(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(
      `<local-url>: ${JSON.stringify(raw)} is not a URL (e.g. http://localhost:3000/hooks)`,
      EXIT.usage,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`<local-url>: must be http or https, not ${url.protocol}`, EXIT.usage);
  return url.href;
}

/** `--events a.b,c.*`: the subscription's event types (`*` wildcards as subscriptions take them). */
export function eventTypeList(raw: string): string[] {
  const types = raw
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (types.length === 0) throw new InvalidArgumentError('give one event type or more, comma-separated');
  if (types.some((t) => t.length > 200))
    throw new InvalidArgumentError('an event type has at most 200 characters');
  return [...new Set(types)];
}

export function registerListen(program: Command, ctx: CliContext): void {
  program
    .command('listen <local-url>')
    .description(
      "receive the project's deliveries on this machine: each is POSTed to <local-url> with its real signature headers and the local answer is the attempt's result (retries and the attempt log as for any endpoint); Ctrl-C stops",
    )
    .option(
      '--events <types>',
      'the event types to receive, comma-separated, * wildcards as subscriptions take them (default: all)',
      eventTypeList,
    )
    .option('--name <name>', 'the cli endpoint to create or reuse (default: cli-<host>-<user>)')
    .option('--count <n>', 'stop after forwarding this many deliveries (scripts, tests)', positiveInt)
    .option(
      '--keep',
      'keep the cli endpoint and its subscription when stopping (by default they are removed)',
    )
    .option(
      '--json',
      'one JSON object per line: each delivery with its local status and latency, and connection changes',
    )
    .addHelpText(
      'after',
      `
Creates (or reuses, by name) an endpoint of type cli in the project, subscribed to --events, and
holds one outbound connection to the gateway; when it stops, it deletes that endpoint with its
subscriptions unless --keep is given. Traffic goes only to the gateway and <local-url>.
Exit codes: 0 stopped with Ctrl-C (or after --count deliveries), 2 a wrong command line, 3 the key refused, 4 the gateway not
reachable at start (later outages are waited out: it reconnects).`,
    )
    .action(
      async (
        rawUrl: string,
        o: { events?: string[]; name?: string; count?: number; keep?: boolean; json?: boolean },
      ) => {
        const localUrl = localUrlArg(rawUrl);
        const name = o.name?.trim() || defaultListenerName();
        const eventTypes = o.events ?? ['*'];
        const { config, call, projectID } = await ctx.session();
        const { endpoint, changes } = await ensureListenTarget(call, projectID, { name, eventTypes });
        const stop = new AbortController();
        const report = stopAfter(listenReporter(ctx.output, o.json === true), o.count, stop);
        report.started({
          endpoint_id: endpoint.uid,
          name,
          event_types: eventTypes,
          forward_to: localUrl,
          changes,
        });
        process.once('SIGINT', () => stop.abort());
        process.once('SIGTERM', () => stop.abort());
        const ended = await listenLoop({
          config,
          call,
          endpointID: endpoint.uid,
          localUrl,
          report,
          stop: stop.signal,
        }).then(
          () => undefined,
          (err: unknown) => err,
        );
        const cleanup = await endListening(call, projectID, endpoint, o.keep === true, report);
        if (ended ?? cleanup) throw ended ?? cleanup;
      },
    );
}

/**
 * When `listen` stops: deletes its endpoint (the gateway deletes its subscriptions with it), so no
 * endpoint is left behind to collect deliveries nobody receives; `--keep` keeps both. Answers the
 * failure to delete, after reporting it, for the command's exit code.
 */
async function endListening(
  call: Caller,
  projectID: string,
  endpoint: { uid: string; name: string },
  keep: boolean,
  report: ListenReporter,
): Promise<unknown> {
  const end = { endpoint_id: endpoint.uid, name: endpoint.name };
  if (keep) {
    report.stopped({ ...end, removed: false });
    return undefined;
  }
  try {
    await call(api.deleteEndpoint, { params: { projectID, endpointID: endpoint.uid } });
    report.stopped({ ...end, removed: true });
  } catch (err) {
    report.stopped({ ...end, removed: false, error: (err as Error).message });
    return err;
  }
}

/** With `--count n`: the n-th delivery reported stops the command (exit 0). */
function stopAfter(report: ListenReporter, count: number | undefined, stop: AbortController): ListenReporter {
  if (count === undefined) return report;
  let seen = 0;
  return {
    ...report,
    delivery(...args) {
      report.delivery(...args);
      if (++seen >= count) stop.abort();
    },
  };
}
