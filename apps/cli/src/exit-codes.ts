/** What `hookrail` exits with, so scripts can tell the failures apart (docs/cli.md lists them). */
export const EXIT = {
  ok: 0,
  /** The gateway refused the call (a 4xx or 5xx; its message is printed). */
  refused: 1,
  /** The command line itself was wrong (unknown command or option, a missing argument, bad JSON). */
  usage: 2,
  /** Not logged in, or the key was refused (401/403). */
  auth: 3,
  /** The gateway could not be reached. */
  unreachable: 4,
} as const;

/** A failure that ends the command with its exit code and message. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}
