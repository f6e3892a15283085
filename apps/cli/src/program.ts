import { Command, CommanderError } from 'commander';
import { registerApply } from './commands/apply';
import { registerDeliveries } from './commands/deliveries';
import { registerEvents } from './commands/events';
import { registerListen } from './commands/listen';
import { registerLogin } from './commands/login';
import { registerSend } from './commands/send';
import { registerTail } from './commands/tail';
import { registerResources } from './resources/resources';
import { cliContext } from './context';
import { CliError, EXIT } from './exit-codes';
import type { Output } from './output';

const VERSION = '0.1.0';

function program(output: Output, env: NodeJS.ProcessEnv): Command {
  const ctx = cliContext(output, env);
  const root = new Command('hookrail')
    .description(
      'Hookrail from the command line: send events, follow, inspect and retry their deliveries, receive them on this machine',
    )
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) })
    .exitOverride()
    .addHelpText(
      'after',
      `
Log in once (hookrail login --url http://localhost:8080 --api-key <key>), or set HOOKRAIL_URL,
HOOKRAIL_PROJECT_ID and HOOKRAIL_API_KEY. Exit codes: 0 done, 1 the gateway refused the call,
2 a wrong command line, 3 not logged in or the key refused, 4 the gateway not reachable.`,
    );
  registerLogin(root, ctx);
  registerSend(root, ctx);
  registerEvents(root, ctx);
  registerDeliveries(root, ctx);
  registerTail(root, ctx);
  registerListen(root, ctx);
  registerResources(root, ctx);
  registerApply(root, ctx);
  // Subcommands, at every depth, report their own usage errors through the same override.
  const overrideAll = (cmd: Command): void =>
    cmd.commands.forEach((sub) =>
      overrideAll(sub.exitOverride().showHelpAfterError('(run with --help for usage)')),
    );
  overrideAll(root);
  return root;
}

/** Runs one command line; answers its exit code (docs/cli.md lists them). */
export async function runCli(
  argv: string[],
  output: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    await program(output, env).parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (err instanceof CliError) {
      output.err(`hookrail: ${err.message}`);
      return err.code;
    }
    output.err(`hookrail: ${(err as Error).stack ?? String(err)}`);
    return EXIT.refused;
  }
}
