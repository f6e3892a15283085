import type { Caller, ItemOf, Operation, Page, QueryValues } from '@hookrail/api-contract';
import { Option, type Command } from 'commander';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../exit-codes';
import { jsonInput, type TextSource } from '../commands/json-input';
import { positiveInt } from '../commands/options';
import { json, table } from '../output';

/** The five operations a resource's commands call. */
export interface ResourceOps {
  list: Operation;
  get: Operation;
  create: Operation;
  update: Operation;
  /** Delete, or what stands for it (portal links are revoked). */
  remove: Operation;
}

/** A typed option of create and update that sets one field of the body (a dot path for a nested one). */
interface FieldOption {
  flags: string;
  field: string;
  description: string;
  parse?(raw: string, previous?: unknown): unknown;
  choices?: readonly string[];
}

/** One resource's commands, declared: its operations, its list's columns, its typed options. */
export interface ResourceSpec<O extends ResourceOps = ResourceOps> {
  /** The command (`endpoints`) and what one item is called (`endpoint`). */
  command: string;
  noun: string;
  /** The path parameter naming one item (`endpointID`). */
  idParam: string;
  ops: O;
  columns: [header: string, cell: (item: ItemOf<O['get']>) => string][];
  fields: FieldOption[];
  /** What `delete` did, when it is not a deletion (`revoked`). */
  removed?: string;
}

/** A resource's table, typed by its operations where it is written, erased for the engine below. */
export const defineResource = <O extends ResourceOps>(spec: ResourceSpec<O>): ResourceSpec =>
  spec as unknown as ResourceSpec;

type LooseCall = (
  op: Operation,
  args: { params: Record<string, string>; query?: QueryValues; body?: unknown },
) => Promise<unknown>;

/** The typed caller with the operation chosen at run time (the gateway validates the body). */
export const looseCall = (call: Caller): LooseCall => call as unknown as LooseCall;

/** Pages of a list read before giving up. */
const MAX_PAGES = 50;

/** A list's items, one page of `perPage` (a list that is not paginated: all of it, cut to `perPage`). */
async function listPage(call: Caller, op: Operation, projectID: string, query: QueryValues) {
  const data = await looseCall(call)(op, { params: { projectID }, query });
  return Array.isArray(data) ? { content: data, pagination: undefined } : (data as Page<unknown>);
}

/** Every item of a list, following its pages. */
export async function listAll<T>(call: Caller, op: Operation, projectID: string): Promise<T[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await listPage(call, op, projectID, {
      perPage: '100',
      ...(cursor && { next_page_cursor: cursor, direction: 'next' }),
    });
    items.push(...page.content);
    if (!page.pagination?.has_next_page) break;
    cursor = page.pagination.next_page_cursor;
  }
  return items as T[];
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const aN = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** Sets `value` at a dot path of `body`, creating the objects on the way. */
export function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = body;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    at = at[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...next } : {};
  }
  at[keys.at(-1)!] = value;
}

/**
 * A create or update body: the JSON object of `--data`/`--file`, then each typed option given set
 * over it. Neither: a usage error (exit 2), as is JSON that is not an object.
 */
export async function bodyOf(
  spec: ResourceSpec,
  o: TextSource & Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const data = await jsonInput(o, false);
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data)))
    throw new CliError(`the ${spec.noun}: --data or --file must hold a JSON object`, EXIT.usage);
  const body = { ...(data as Record<string, unknown> | undefined) };
  for (const f of spec.fields) {
    const value = o[new Option(f.flags).attributeName()];
    if (value !== undefined) setPath(body, f.field, value);
  }
  if (Object.keys(body).length === 0) {
    const flags = spec.fields.map((f) => f.flags.split(' ')[0]).join(', ');
    throw new CliError(`the ${spec.noun}: give --data <json>, --file <path> or ${flags}`, EXIT.usage);
  }
  return body;
}

/** One item for a person: its id, then a `field: value` line per field (objects as JSON). */
function showLines(noun: string, item: Record<string, unknown>): string[] {
  const text = (v: unknown) =>
    v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return [
    `${capitalized(noun)} ${String(item.uid)}`,
    ...Object.entries(item)
      .filter(([k]) => k !== 'uid')
      .map(([k, v]) => `  ${k}: ${text(v)}`),
  ];
}

function addWriteOptions(cmd: Command, spec: ResourceSpec): Command {
  cmd
    .option('--data <json>', `the ${spec.noun} as a JSON object (the API's body)`)
    .option('--file <path>', `a file holding the ${spec.noun} as JSON (- for standard input)`);
  for (const f of spec.fields) {
    const option = new Option(f.flags, f.description);
    if (f.choices) option.choices(f.choices);
    cmd.addOption(f.parse ? option.argParser(f.parse) : option);
  }
  return cmd
    .option('--json', `print the ${spec.noun} as JSON`)
    .option('-q, --quiet', `print only the ${spec.noun}'s id`);
}

interface WriteOptions extends TextSource {
  json?: boolean;
  quiet?: boolean;
  [option: string]: unknown;
}

/** `<command> list|show|create|update|delete`, from the resource's table. */
export function registerResource(program: Command, ctx: CliContext, spec: ResourceSpec): void {
  const group = program
    .command(spec.command)
    .description(`list, show, create, update and delete ${spec.command}`);
  const { ops, noun } = spec;
  const params = (projectID: string, id: string) => ({ projectID, [spec.idParam]: id });
  const written = (o: WriteOptions, item: Record<string, unknown>, what: string) =>
    ctx.output.out(
      o.json ? json(item) : o.quiet ? String(item.uid) : `${capitalized(noun)} ${String(item.uid)} ${what}`,
    );

  group
    .command('list')
    .description(`the project's ${spec.command}`)
    .option('--limit <n>', 'at most this many (default 20, at most 100)', positiveInt, 20)
    .option('--json', 'print the API page as JSON')
    .option('-q, --quiet', 'print only the ids, one per line')
    .action(async (o: { limit: number; json?: boolean; quiet?: boolean }) => {
      const { call, projectID } = await ctx.session();
      const page = await listPage(call, ops.list, projectID, { perPage: String(Math.min(o.limit, 100)) });
      const items = page.content.slice(0, o.limit) as Record<string, unknown>[];
      if (o.json) return ctx.output.out(json(page.pagination ? page : items));
      if (o.quiet) return items.forEach((x) => ctx.output.out(String(x.uid)));
      if (items.length === 0) return ctx.output.out(`No ${spec.command}.`);
      const headers = spec.columns.map(([h]) => h);
      const rows = items.map((item) => spec.columns.map(([, cell]) => cell(item) || '—'));
      for (const line of table(headers, rows)) ctx.output.out(line);
    });

  group
    .command('show <id>')
    .description(`one ${noun}`)
    .option('--json', `print the ${noun} as JSON`)
    .action(async (id: string, o: { json?: boolean }) => {
      const { call, projectID } = await ctx.session();
      const item = (await looseCall(call)(ops.get, { params: params(projectID, id) })) as Record<
        string,
        unknown
      >;
      if (o.json) return ctx.output.out(json(item));
      for (const line of showLines(noun, item)) ctx.output.out(line);
    });

  addWriteOptions(group.command('create').description(`create ${aN(noun)}`), spec).action(
    async (o: WriteOptions) => {
      const body = await bodyOf(spec, o);
      const { call, projectID } = await ctx.session();
      const item = await looseCall(call)(ops.create, { params: { projectID }, body });
      written(o, item as Record<string, unknown>, 'created');
    },
  );

  addWriteOptions(
    group.command('update <id>').description(`change the fields given of ${aN(noun)}`),
    spec,
  ).action(async (id: string, o: WriteOptions) => {
    const body = await bodyOf(spec, o);
    const { call, projectID } = await ctx.session();
    const item = await looseCall(call)(ops.update, { params: params(projectID, id), body });
    written(o, item as Record<string, unknown>, 'updated');
  });

  const removed = spec.removed ?? 'deleted';
  group
    .command('delete <id>')
    .description(`${removed === 'deleted' ? 'delete' : removed.replace(/d$/, '')} ${aN(noun)}`)
    .option('--json', 'print the result as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const { call, projectID } = await ctx.session();
      await looseCall(call)(ops.remove, { params: params(projectID, id) });
      ctx.output.out(o.json ? json({ uid: id, [removed]: true }) : `${capitalized(noun)} ${id} ${removed}`);
    });
}
