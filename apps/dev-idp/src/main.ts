import { createInterface } from 'node:readline';
import { FAULTS, type Fault } from './faults';
import { startDevIdp, type DevIdp } from './provider';

/**
 * Commands on standard input, one a line, for the tests that run this as a process:
 * `remove <login>` (the person is deleted), `fault <none|tampered|expired|other-issuer>`.
 */
function obey(idp: DevIdp): void {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, arg] = line.trim().split(/\s+/);
    if (command === 'remove' && arg) idp.removeUser(arg);
    else if (command === 'fault' && (FAULTS as readonly string[]).includes(arg)) idp.setFault(arg as Fault);
    else return void console.error(`dev identity provider: unknown command ${line}`);
    console.log(`dev identity provider: done ${line.trim()}`);
  });
}

/**
 * `npm start`'s identity provider (deploy/local/up.sh): the port, the client and the gateway's
 * callback from the environment; prints the issuer once it listens.
 */
async function main(): Promise<void> {
  const env = process.env;
  const callback =
    env.HOOKRAIL_DEV_IDP_REDIRECT_URI ??
    `${env.HOOKRAIL_PUBLIC_URL ?? 'http://127.0.0.1:8080'}/console/oidc/callback`;
  const idp = await startDevIdp({
    port: Number(env.HOOKRAIL_DEV_IDP_PORT ?? 8095),
    clientId: env.HOOKRAIL_OIDC_CLIENT_ID ?? 'hookrail-console',
    clientSecret: env.HOOKRAIL_OIDC_CLIENT_SECRET ?? 'hookrail-dev-secret',
    redirectUris: [callback],
    // the gateway's back-channel logout endpoint, beside its callback
    backchannelLogoutUri: callback.replace(/\/callback$/, '/backchannel-logout'),
  });
  console.log(`dev identity provider: ${idp.issuer} (alice/alice owner, bob/bob viewer)`);
  obey(idp);
  const stop = () => void idp.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
