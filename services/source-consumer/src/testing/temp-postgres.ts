import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sparePort, waitFor } from '@hookrail/testkit';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A throwaway PostgreSQL cluster (initdb in a temporary folder, on a spare port) for what the
 * shared one on 5433 must not be: here, a server without `wal_level=logical`. As root it runs as
 * the `postgres` user, as deploy/local/servers.sh runs the shared one.
 */
export async function tempPostgres(settings: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtemp();
  const asUser =
    process.getuid?.() === 0 ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'] : [];
  const run = (bin: string, args: string[]) => {
    const [cmd, ...rest] = [...asUser, path.join(PG_BIN, bin), ...args];
    return { cmd, rest };
  };
  writeFileSync(path.join(dir, 'pw'), 'postgres\n');
  const init = run('initdb', [
    '-D',
    path.join(dir, 'data'),
    '-U',
    'postgres',
    `--pwfile=${path.join(dir, 'pw')}`,
    '--auth=scram-sha-256',
  ]);
  await promisify(execFile)(init.cmd, init.rest);
  const port = await sparePort();
  const server = run('postgres', [
    '-D',
    path.join(dir, 'data'),
    '-c',
    `port=${port}`,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    ...settings.flatMap((s) => ['-c', s]),
  ]);
  const child = spawn(server.cmd, server.rest, { stdio: 'ignore' });
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await waitFor('the temporary postgres ready', async () => {
    const ready = path.join(PG_BIN, 'pg_isready');
    return promisify(execFile)(ready, ['-q', '-h', '127.0.0.1', '-p', String(port)]).then(
      () => true,
      () => undefined,
    );
  });
  return {
    url,
    async stop() {
      // SIGINT: Postgres's fast shutdown.
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function mkdtemp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-pg-'));
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  return dir;
}
