import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  ca: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string; cn: string };
}

/**
 * A throw-away CA with a server certificate for 127.0.0.1/localhost and a client certificate,
 * made with the openssl CLI (node's crypto cannot issue X.509 certificates).
 */
export function makeTestCerts(clientCN = 'hookrail-test-client'): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'hookrail-certs-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  try {
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=hookrail-test-ca',
    );
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    for (const [name, cn, ext] of [
      ['server', 'localhost', ['-extfile', 'server.ext']],
      ['client', clientCN, []],
    ] as const) {
      run(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        `/CN=${cn}`,
      );
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        ...ext,
      );
    }
    return {
      ca: read('ca.crt'),
      server: { cert: read('server.crt'), key: read('server.key') },
      client: { cert: read('client.crt'), key: read('client.key'), cn: clientCN },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
