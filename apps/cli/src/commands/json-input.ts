import { readFile } from 'node:fs/promises';
import { CliError, EXIT } from '../exit-codes';

/** Where some text comes from: `--data` itself, else the file (`-` reads standard input). */
export interface TextSource {
  data?: string;
  file?: string;
}

/** The text of `--file` (`-`: standard input), an unreadable file being a usage error (exit 2). */
export async function readInput(file: string): Promise<string> {
  try {
    return file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, EXIT.usage);
  }
}

/**
 * `--data` JSON, else `--file`'s; `undefined` when neither is given and `required` is false. Both,
 * neither when required, unreadable or not JSON: a usage error (exit 2), before anything is sent.
 */
export async function jsonInput(o: TextSource, required = true): Promise<unknown> {
  if (o.data !== undefined && o.file !== undefined)
    throw new CliError('--data and --file: choose one', EXIT.usage);
  if (o.data === undefined && o.file === undefined) {
    if (required) throw new CliError('the data: give --data <json> or --file <path>', EXIT.usage);
    return undefined;
  }
  const where = o.data !== undefined ? '--data' : o.file === '-' ? 'standard input' : o.file!;
  const text = o.data ?? (await readInput(o.file!));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${where} is not JSON: ${(err as Error).message}`, EXIT.usage);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
