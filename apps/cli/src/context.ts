import type { Caller } from '@hookrail/api-contract';
import { loadConfig, type CliConfig } from './config-file';
import { projectCaller } from './gateway';
import type { Output } from './output';

/** What every command gets: where to print, the environment, and the logged-in project. */
export interface CliContext {
  output: Output;
  env: NodeJS.ProcessEnv;
  /** The stored login (or the environment's) and a caller of the management API with its key. */
  session(): Promise<{ config: CliConfig; call: Caller; projectID: string }>;
}

export function cliContext(output: Output, env: NodeJS.ProcessEnv): CliContext {
  return {
    output,
    env,
    async session() {
      const config = await loadConfig(env);
      return { config, call: projectCaller(config.url, config.api_key), projectID: config.project_id };
    },
  };
}
