import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

// helm's version and path as deploy/local/lib.sh pins them (provision.sh --test-tools installs it)
const libSh = readFileSync(path.join(__dirname, '../../deploy/local/lib.sh'), 'utf8');
const helmVersion = /^HELM_VERSION=(\S+)$/m.exec(libSh)![1];
const helm = path.join(
  process.env.HOOKRAIL_CACHE ?? path.join(os.homedir(), '.cache/hookrail'),
  `bin/helm-${helmVersion}`,
);

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Deployment {
  kind: string;
  metadata: { name: string };
  spec: { template: { spec: { containers: { env: EnvVar[] }[] } } };
}

const KEYS = ['--set', 'secrets.adminKey=hr_admin.x', '--set', 'secrets.encryptionKey=k'];
const SSO = [
  '--set',
  'oidc.issuer=https://login.example.com/realms/ops',
  '--set',
  'oidc.clientId=hookrail',
  '--set',
  'oidc.clientSecretName=hookrail-oidc',
  '--set-json',
  'oidc.roleMapping={"instance":{"platform":"owner"},"projects":{"01PROJ":{"support":"operator"}}}',
];

function template(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(helm, ['template', 'rel', __dirname, ...KEYS, ...args], { encoding: 'utf8' });
}

function envOf(args: string[], service: string): Map<string, EnvVar> {
  const r = template(args);
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr}`);
  const deployment = parseAllDocuments(r.stdout)
    .map((d) => d.toJSON() as Deployment | null)
    .find((d) => d?.kind === 'Deployment' && d.metadata.name === `rel-hookrail-${service}`)!;
  return new Map(deployment.spec.template.spec.containers[0].env.map((e) => [e.name, e]));
}

/** The chart's single sign-on values: only the gateway gets them, the client secret only from a Secret. */
describe('Helm chart: single sign-on values (oidc.*)', () => {
  it('passes the provider, the client, the scopes, the groups claim and the mapping to the gateway', () => {
    const env = envOf(SSO, 'api-gateway');
    expect(env.get('HOOKRAIL_OIDC_ISSUER')?.value).toBe('https://login.example.com/realms/ops');
    expect(env.get('HOOKRAIL_OIDC_CLIENT_ID')?.value).toBe('hookrail');
    expect(env.get('HOOKRAIL_OIDC_CLIENT_SECRET')?.valueFrom?.secretKeyRef).toEqual({
      name: 'hookrail-oidc',
      key: 'HOOKRAIL_OIDC_CLIENT_SECRET',
    });
    expect(env.get('HOOKRAIL_OIDC_SCOPES')?.value).toBe('openid,email,profile,groups,offline_access');
    expect(env.get('HOOKRAIL_OIDC_GROUPS_CLAIM')?.value).toBe('groups');
    expect(JSON.parse(env.get('HOOKRAIL_OIDC_ROLE_MAPPING')!.value!)).toEqual({
      instance: { platform: 'owner' },
      projects: { '01PROJ': { support: 'operator' } },
    });
    expect(envOf(SSO, 'dispatcher').has('HOOKRAIL_OIDC_ISSUER')).toBe(false);
  });

  it('sets no single sign-on without an issuer, and turns key sign-in off on request', () => {
    expect(envOf([], 'api-gateway').has('HOOKRAIL_OIDC_ISSUER')).toBe(false);
    expect(
      envOf([...SSO, '--set', 'oidc.keySignIn=false'], 'api-gateway').get('HOOKRAIL_CONSOLE_KEY_SIGN_IN')
        ?.value,
    ).toBe('false');
  });

  it.each([
    [['--set', 'oidc.issuer=https://idp', '--set', 'oidc.clientId=c'], 'oidc.clientSecretName is required'],
    [['--set', 'oidc.issuer=https://idp', '--set', 'oidc.clientSecretName=s'], 'oidc.clientId is required'],
    [['--set-json', 'oidc.roleMapping={"instance":{"ops":"superuser"}}'], '/oidc/roleMapping/instance/ops'],
  ])('refuses %j, naming the value', (args, message) => {
    const r = template(args);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
  });
});
