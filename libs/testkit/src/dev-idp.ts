import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from './wait-for';

const ROOT = path.resolve(__dirname, '../../..');

export interface DevIdpProcess {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person is deleted in the provider: their refresh tokens stop working. */
  removeUser(login: string): Promise<void>;
  /** Spoils the ID tokens the provider sends from now on: tampered, expired, another issuer's. */
  setFault(fault: 'none' | 'tampered' | 'expired' | 'other-issuer'): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the dev identity provider (apps/dev-idp, oidc-provider with alice and bob) as its own
 * process on a free port, registered for the gateway's `redirectUri`; resolved once it listens.
 */
export async function startDevIdpProcess(redirectUri: string): Promise<DevIdpProcess> {
  const clientId = 'hookrail-console-test';
  const clientSecret = 'dev-idp-test-secret';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/dev-idp/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOOKRAIL_DEV_IDP_PORT: '0',
      HOOKRAIL_DEV_IDP_REDIRECT_URI: redirectUri,
      HOOKRAIL_OIDC_CLIENT_ID: clientId,
      HOOKRAIL_OIDC_CLIENT_SECRET: clientSecret,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const issuer = await waitFor(
    'the dev identity provider listening',
    async () => {
      if (child.exitCode !== null) throw new Error(`dev identity provider exited: ${out}`);
      return /dev identity provider: (http:\/\/\S+)/.exec(out)?.[1];
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  const command = async (line: string) => {
    child.stdin!.write(`${line}\n`);
    await waitFor(`dev identity provider: ${line}`, async () => out.includes(`done ${line}`) || undefined, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
  };
  return {
    issuer,
    clientId,
    clientSecret,
    removeUser: (login) => command(`remove ${login}`),
    setFault: (fault) => command(`fault ${fault}`),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
