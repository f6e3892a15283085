import type { Command } from 'commander';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../exit-codes';
import { parseApplyFile } from '../apply/apply-file';
import { NOUN, planApply, type Action, type Change } from '../apply/apply-plan';
import { ApplyFailure, readProject, runPlan } from '../apply/apply-run';
import { json } from '../output';
import { readInput } from './json-input';

const DONE: Record<Action, string> = {
  create: 'created',
  update: 'updated',
  unchanged: 'unchanged',
  delete: 'deleted',
};

/** `created   endpoint billing (01H…)`, `update    subscription invoices (01H…): retry_config`. */
function changeLine(c: Change, dryRun: boolean): string {
  const verb = dryRun ? c.action : DONE[c.action];
  const id = c.uid ? ` (${c.uid})` : '';
  const fields = c.fields.length > 0 ? `: ${c.fields.join(', ')}` : '';
  return `${verb.padEnd(9)}  ${NOUN[c.section]} ${c.name}${id}${fields}`;
}

/** `2 created, 1 updated, 3 unchanged.` (a dry run: `Dry run: 2 to create, …; nothing was changed.`) */
function summary(changes: Change[], dryRun: boolean): string {
  const text = (['create', 'update', 'unchanged', 'delete'] as const)
    .map((a) => [a, changes.filter((c) => c.action === a).length] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => (dryRun && a !== 'unchanged' ? `${n} to ${a}` : `${n} ${DONE[a]}`))
    .join(', ');
  return dryRun ? `Dry run: ${text || 'nothing to do'}; nothing was changed.` : `${text || 'Nothing to do'}.`;
}

const forScripts = (c: Change) => ({
  section: c.section,
  name: c.name,
  action: c.action,
  uid: c.uid ?? null,
  fields: c.fields,
});

interface ApplyOptions {
  file: string;
  dryRun?: boolean;
  prune?: boolean;
  json?: boolean;
}

export function registerApply(program: Command, ctx: CliContext): void {
  program
    .command('apply')
    .description(
      "create or update the project's event types, sources, endpoints and subscriptions from one file, matched by name",
    )
    .requiredOption('-f, --file <path>', 'the file: YAML or JSON (- for standard input)')
    .option('--dry-run', 'print what would change, and change nothing')
    .option('--prune', "also delete the project's items of each section the file has that it does not name")
    .option('--json', 'print the changes as JSON')
    .addHelpText(
      'after',
      `
The file has up to four sections, each a list of the API's create bodies: event_types, sources,
endpoints, subscriptions (a subscription names its endpoint and its source by name). The file is
checked before anything is sent (exit 2, naming each place, e.g. endpoints[2].url). Items the file
does not name are left alone unless --prune is given (cli endpoints of hookrail listen never).`,
    )
    .action(async (o: ApplyOptions) => {
      const where = o.file === '-' ? 'standard input' : o.file;
      const file = parseApplyFile(await readInput(o.file), where);
      const { call, projectID } = await ctx.session();
      const state = await readProject(call, projectID);
      const changes = planApply(file, state, { prune: o.prune === true });
      if (o.dryRun) return reportDryRun(ctx, changes, o.json === true);
      const done: Change[] = [];
      try {
        await runPlan(call, projectID, state, changes, (c) => {
          done.push(c);
          if (!o.json) ctx.output.out(changeLine(c, false));
        });
      } catch (err) {
        if (!(err instanceof ApplyFailure)) throw err;
        const failed = { ...forScripts(err.change), error: err.message };
        if (o.json) ctx.output.out(json({ dry_run: false, changes: done.map(forScripts), failed }));
        const { action, section, name } = err.change;
        const code = err.error instanceof CliError ? err.error.code : EXIT.refused;
        throw new CliError(`could not ${action} ${NOUN[section]} ${name}: ${err.message}`, code);
      }
      if (o.json) return ctx.output.out(json({ dry_run: false, changes: done.map(forScripts) }));
      ctx.output.out(summary(changes, false));
    });
}

/** `--dry-run`: the plan, each change and the summary (or as JSON), nothing sent. */
function reportDryRun(ctx: CliContext, changes: Change[], asJson: boolean): void {
  if (asJson) return ctx.output.out(json({ dry_run: true, changes: changes.map(forScripts) }));
  for (const c of changes) ctx.output.out(changeLine(c, true));
  ctx.output.out(summary(changes, true));
}
