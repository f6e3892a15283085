import { consoleOperations, managementOperations } from '@hookrail/api-contract';
import type { Command } from 'commander';
import { rm } from 'node:fs/promises';
import { configPath, saveConfig } from '../config-file';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../exit-codes';
import { gatewayCaller, projectCaller } from '../gateway';
import { json } from '../output';

function gatewayUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--url: ${JSON.stringify(raw)} is not a URL (e.g. http://localhost:8080)`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`--url: must be http or https, not ${url.protocol}`, EXIT.usage);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The project a project API key belongs to, as the console's sign-in reports it. */
async function projectOfKey(url: string, key: string): Promise<string> {
  const session = await gatewayCaller(url, {})(consoleOperations.signIn, { body: { key } });
  if (session.kind !== 'project' || !session.project_id)
    throw new CliError('that is the admin key: log in with a project API key', EXIT.usage);
  return session.project_id;
}

export function registerLogin(program: Command, ctx: CliContext): void {
  program
    .command('login')
    .description(`store the gateway URL, the project and its API key in ${configPath(ctx.env)} (mode 0600)`)
    .requiredOption('--url <url>', 'the gateway, e.g. http://localhost:8080')
    .requiredOption('--api-key <key>', "a project's API key")
    .option('--project <id>', 'the project id (default: the project the key belongs to)')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { url: string; apiKey: string; project?: string; json?: boolean }) => {
      const url = gatewayUrl(opts.url);
      const key = opts.apiKey.trim();
      if (!key) throw new CliError('--api-key: empty', EXIT.usage);
      const projectID = opts.project ?? (await projectOfKey(url, key));
      const project = await projectCaller(url, key)(managementOperations.getProject, {
        params: { projectID },
      });
      const file = configPath(ctx.env);
      await saveConfig({ url, project_id: projectID, api_key: key }, file);
      ctx.output.out(
        opts.json
          ? json({ url, project_id: projectID, project_name: project.name, config_file: file })
          : `Logged in to ${url}, project ${project.name} (${projectID}); saved in ${file}`,
      );
    });

  program
    .command('logout')
    .description('forget the stored login')
    .action(async () => {
      const file = configPath(ctx.env);
      await rm(file, { force: true });
      ctx.output.out(`Removed ${file}`);
    });
}
