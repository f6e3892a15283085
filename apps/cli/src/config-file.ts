import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from './exit-codes';

/** What `hookrail login` stores: where the gateway is, the project, and its API key. */
export interface CliConfig {
  url: string;
  project_id: string;
  api_key: string;
}

/** `$XDG_CONFIG_HOME/hookrail/config.json`, else `~/.config/hookrail/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'hookrail', 'config.json');
}

/** Writes the file readable by its owner only (0600, in a 0700 folder): it holds an API key. */
export async function saveConfig(config: CliConfig, file = configPath()): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600); // a umask cannot widen it, but an existing file keeps its mode otherwise
  await rename(tmp, file);
}

/**
 * The stored login, with `HOOKRAIL_URL`, `HOOKRAIL_PROJECT_ID` and `HOOKRAIL_API_KEY` taking
 * precedence (for scripts and CI, which need no file).
 */
export async function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  file = configPath(env),
): Promise<CliConfig> {
  let stored: Partial<CliConfig> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<CliConfig>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new CliError(`cannot read ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  const config = {
    url: env.HOOKRAIL_URL || stored.url,
    project_id: env.HOOKRAIL_PROJECT_ID || stored.project_id,
    api_key: env.HOOKRAIL_API_KEY || stored.api_key,
  };
  if (!config.url || !config.project_id || !config.api_key)
    throw new CliError(
      'not logged in: run `hookrail login --url <gateway> --api-key <key>` first',
      EXIT.auth,
    );
  return config as CliConfig;
}
