import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const chart = __dirname;
const helm = path.join(
  process.env.HOOKRAIL_CACHE ?? path.join(os.homedir(), '.cache/hookrail'),
  'bin/helm-v3.19.0',
);
const values = ['--set', 'secrets.adminKey=hr_admin.x', '--set', 'secrets.encryptionKey=k'];

interface K8sObject {
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
}

function render(extra: string[] = []): K8sObject[] {
  const out = execFileSync(helm, ['template', 'rel', chart, ...values, ...extra], { encoding: 'utf8' });
  return parseAllDocuments(out)
    .map((d) => d.toJSON() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);
}

const SERVICES = ['api-gateway', 'ingest', 'source-consumer', 'dispatcher', 'retry-scheduler', 'meta-event'];

describe('Helm chart charts/hookrail', () => {
  beforeAll(() => {
    if (!existsSync(helm))
      throw new Error(`helm not found at ${helm}: run deploy/local/provision.sh --test-tools`);
  });

  it('passes helm lint', () => {
    const out = execFileSync(helm, ['lint', chart, ...values], { encoding: 'utf8' });
    expect(out).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it('renders one Deployment and Service per service, HPAs and PDBs where enabled', () => {
    const objects = render();
    const names = (kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
    expect(names('Deployment').sort()).toEqual(SERVICES.map((s) => `rel-hookrail-${s}`).sort());
    expect(names('Service')).toHaveLength(6);
    expect(names('HorizontalPodAutoscaler').sort()).toEqual(
      ['api-gateway', 'ingest', 'dispatcher'].map((s) => `rel-hookrail-${s}`).sort(),
    );
    expect(names('PodDisruptionBudget')).toContain('rel-hookrail-dispatcher');
    const dispatcher = objects.find(
      (o) => o.metadata.name === 'rel-hookrail-dispatcher' && o.kind === 'Deployment',
    );
    const container = (
      dispatcher?.spec as {
        template: {
          spec: { containers: { args: string[]; readinessProbe: { httpGet: { path: string } } }[] };
        };
      }
    ).template.spec.containers[0];
    expect(container.args).toEqual(['services/dispatcher/dist/main.js']);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
  });

  it('refuses to render without the admin and encryption keys', () => {
    expect(() => execFileSync(helm, ['template', 'rel', chart], { encoding: 'utf8', stdio: 'pipe' })).toThrow(
      /secrets.adminKey is required/,
    );
  });

  it('uses an existing secret instead of creating one', () => {
    const objects = render(['--set', 'secrets.existingSecret=mine']);
    expect(objects.filter((o) => o.kind === 'Secret')).toHaveLength(0);
  });
});
