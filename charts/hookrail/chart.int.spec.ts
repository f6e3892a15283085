import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { crdSources, ensureSchemas } from '../../tools/kube-schemas';

// Tool versions and paths come from deploy/local/lib.sh, which provision.sh --test-tools installs.
const libSh = readFileSync(path.join(__dirname, '../../deploy/local/lib.sh'), 'utf8');
const setting = (name: string) => {
  const m = new RegExp(`^${name}=(\\S+)$`, 'm').exec(libSh);
  if (!m) throw new Error(`${name} not found in deploy/local/lib.sh`);
  return m[1];
};
const cache = process.env.HOOKRAIL_CACHE ?? path.join(os.homedir(), '.cache/hookrail');
const helm = path.join(cache, `bin/helm-${setting('HELM_VERSION')}`);
const kubeconform = path.join(cache, `bin/kubeconform-${setting('KUBECONFORM_VERSION')}`);
const KUBE_VERSION = setting('KUBE_VERSION');

const chart = __dirname;
const production = path.join(chart, 'ci/production-values.yaml');
const keys = ['--set', 'secrets.adminKey=hr_admin.x', '--set', 'secrets.encryptionKey=k'];
const SERVICES = ['api-gateway', 'ingest', 'source-consumer', 'dispatcher', 'retry-scheduler', 'meta-event'];

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  args: string[];
  env?: EnvVar[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  livenessProbe?: { httpGet: { path: string } };
  readinessProbe?: { httpGet: { path: string } };
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  topologySpreadConstraints?: { topologyKey: string }[];
  volumes?: { name: string }[];
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, unknown> & { template?: { spec: PodSpec } };
}

function helmRun(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(helm, args, { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function renderText(extra: string[]): string {
  const r = helmRun(['template', 'rel', chart, ...extra]);
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr}`);
  return r.stdout;
}

function parse(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJSON() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);
}

const render = (extra: string[] = []) => parse(renderText([...keys, ...extra]));
const renderProduction = () => parse(renderText(['-f', production]));

const find = (objects: K8sObject[], kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind} ${name} not rendered`);
  return o;
};

/** Pod specs of every workload: Deployments, the set-up Job, the helm test Pod. */
function workloads(objects: K8sObject[]): { name: string; pod: PodSpec }[] {
  return objects.flatMap((o) => {
    if (o.kind === 'Deployment' || o.kind === 'Job')
      return [{ name: `${o.kind}/${o.metadata.name}`, pod: (o.spec.template as { spec: PodSpec }).spec }];
    if (o.kind === 'Pod') return [{ name: `Pod/${o.metadata.name}`, pod: o.spec as unknown as PodSpec }];
    return [];
  });
}

describe('Helm chart charts/hookrail', () => {
  beforeAll(() => {
    for (const bin of [helm, kubeconform])
      if (!existsSync(bin)) throw new Error(`${bin} not found: run deploy/local/provision.sh --test-tools`);
  });

  it('passes helm lint --strict with the default and the production-like values', () => {
    for (const values of [keys, ['-f', production]]) {
      const out = execFileSync(helm, ['lint', '--strict', chart, ...values], { encoding: 'utf8' });
      expect(out).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  it('renders one Deployment and Service per service, HPAs and PDBs where enabled', () => {
    const objects = render();
    const names = (kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
    expect(names('Deployment').sort()).toEqual(SERVICES.map((s) => `rel-hookrail-${s}`).sort());
    expect(names('Service')).toHaveLength(6);
    expect(names('HorizontalPodAutoscaler').sort()).toEqual(
      ['api-gateway', 'ingest', 'dispatcher'].map((s) => `rel-hookrail-${s}`).sort(),
    );
    expect(names('PodDisruptionBudget').sort()).toEqual(
      ['api-gateway', 'ingest', 'dispatcher', 'retry-scheduler'].map((s) => `rel-hookrail-${s}`).sort(),
    );
    expect(names('ServiceAccount')).toEqual(['rel-hookrail']);
    expect(names('Ingress')).toEqual([]);
    expect(names('NetworkPolicy')).toEqual([]);
    const container = find(objects, 'Deployment', 'rel-hookrail-dispatcher').spec.template!.spec
      .containers[0];
    expect(container.args).toEqual(['dist/dispatcher.js']);
  });

  it('keeps exposed services serving through a pre-stop delay, within a grace period that covers it', () => {
    const pod = (objects: K8sObject[], name: string) =>
      find(objects, 'Deployment', `rel-hookrail-${name}`).spec.template!.spec as PodSpec & {
        terminationGracePeriodSeconds: number;
        containers: (Container & { lifecycle?: { preStop?: { sleep?: { seconds: number } } } })[];
      };
    const objects = render();
    for (const name of ['api-gateway', 'ingest']) {
      expect(pod(objects, name).containers[0].lifecycle).toEqual({ preStop: { sleep: { seconds: 5 } } });
      expect(pod(objects, name).terminationGracePeriodSeconds).toBe(20);
    }
    expect(pod(objects, 'dispatcher').containers[0].lifecycle).toBeUndefined();
    expect(pod(objects, 'dispatcher').terminationGracePeriodSeconds).toBe(15);
    const none = render(['--set', 'shutdownDelaySeconds=0']);
    expect(pod(none, 'api-gateway').containers[0].lifecycle).toBeUndefined();
    expect(pod(none, 'api-gateway').terminationGracePeriodSeconds).toBe(15);
  });

  it('passes the trusted proxies to every service and refuses an entry that is not an address or a range', () => {
    const env = (objects: K8sObject[]) =>
      find(objects, 'Deployment', 'rel-hookrail-api-gateway').spec.template!.spec.containers[0].env ?? [];
    expect(env(render()).find((e) => e.name === 'HOOKRAIL_TRUSTED_PROXIES')).toBeUndefined();
    const set = render(['--set', 'config.trustedProxies={10.0.0.0/8,fd00::/8}']);
    expect(env(set).find((e) => e.name === 'HOOKRAIL_TRUSTED_PROXIES')?.value).toBe('10.0.0.0/8,fd00::/8');
    const refused = helmRun([
      'template',
      'rel',
      chart,
      ...keys,
      '--set',
      'config.trustedProxies={ingress-nginx}',
    ]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/config\/trustedProxies\/0/);
  });

  it('gives the named change stream connections, each from its Secret, to the gateway and the source consumer only', () => {
    const connections = [
      { name: 'orders-db', secretName: 'orders-cdc', projects: ['*'] },
      { name: 'crm', secretName: 'crm-cdc', secretKey: 'uri', projects: ['p1', 'p2'] },
    ];
    const objects = render(['--set-json', `changeStreams.connections=${JSON.stringify(connections)}`]);
    type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
    const env = (service: string) =>
      (find(objects, 'Deployment', `rel-hookrail-${service}`).spec.template!.spec.containers[0].env ??
        []) as Env[];
    for (const service of SERVICES) {
      const named = env(service).filter((e) => e.name.startsWith('HOOKRAIL_CHANGE_STREAM_CONNECTION'));
      if (service !== 'api-gateway' && service !== 'source-consumer') {
        expect({ service, named }).toEqual({ service, named: [] });
        continue;
      }
      expect(named).toEqual([
        {
          name: 'HOOKRAIL_CHANGE_STREAM_CONNECTIONS',
          value: JSON.stringify(connections.map(({ name, projects }) => ({ name, projects }))),
        },
        {
          name: 'HOOKRAIL_CHANGE_STREAM_CONNECTION_ORDERS_DB',
          valueFrom: { secretKeyRef: { name: 'orders-cdc', key: 'connection-string' } },
        },
        {
          name: 'HOOKRAIL_CHANGE_STREAM_CONNECTION_CRM',
          valueFrom: { secretKeyRef: { name: 'crm-cdc', key: 'uri' } },
        },
      ]);
    }
    for (const bad of [
      [{ name: 'Orders DB', secretName: 's', projects: ['*'] }],
      [{ name: 'orders', secretName: 's' }],
      [{ name: 'orders', projects: ['*'] }],
    ]) {
      const refused = helmRun([
        'template',
        'rel',
        chart,
        ...keys,
        '--set-json',
        `changeStreams.connections=${JSON.stringify(bad)}`,
      ]);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/changeStreams\/connections\/0/);
    }
  });

  it('points the dispatcher at the gateway Service for hookrail listen, and each gateway pod advertises its own address', () => {
    const objects = render(['--set', 'services.api-gateway.port=9090']);
    type Env = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } };
    const env = (name: string) =>
      (find(objects, 'Deployment', `rel-hookrail-${name}`).spec.template!.spec.containers[0].env ??
        []) as Env[];
    expect(env('dispatcher').find((e) => e.name === 'HOOKRAIL_CLI_RELAY_URL')?.value).toBe(
      'http://rel-hookrail-api-gateway:9090',
    );
    const gateway = env('api-gateway');
    const podIp = gateway.findIndex((e) => e.name === 'POD_IP');
    expect(gateway[podIp].valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
    // $(POD_IP) is expanded only from variables declared before it
    const advertise = gateway.findIndex((e) => e.name === 'HOOKRAIL_CLI_RELAY_ADVERTISE_URL');
    expect(advertise).toBeGreaterThan(podIp);
    expect(gateway[advertise].value).toBe('http://$(POD_IP):9090');
  });

  it('puts a Service on a node port only when its nodePort is set, and refuses one out of range', () => {
    const objects = render(['--set', 'services.api-gateway.nodePort=30080']);
    const spec = (name: string) =>
      find(objects, 'Service', `rel-hookrail-${name}`).spec as {
        type: string;
        ports: { nodePort?: number }[];
      };
    expect(spec('api-gateway')).toMatchObject({ type: 'NodePort', ports: [{ nodePort: 30080 }] });
    expect(spec('ingest').type).toBe('ClusterIP');
    expect(spec('ingest').ports[0].nodePort).toBeUndefined();
    const refused = helmRun(['template', 'rel', chart, ...keys, '--set', 'services.ingest.nodePort=8081']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/services\.ingest\.nodePort|nodePort/);
  });

  it.each([
    ['default', () => render()],
    ['production-like', renderProduction],
  ])(
    'gives every workload probes, resources and a locked-down securityContext (%s values)',
    (_label, objects) => {
      const all = workloads(objects());
      expect(all.length).toBe(9); // six Deployments, the set-up and after-rollout Jobs, the helm test Pod
      for (const { name, pod } of all) {
        expect({ name, pod: pod.securityContext?.runAsNonRoot }).toEqual({ name, pod: true });
        for (const c of pod.containers) {
          const where = `${name} container ${c.name}`;
          expect({ where, requests: Object.keys(c.resources?.requests ?? {}).sort() }).toEqual({
            where,
            requests: ['cpu', 'memory'],
          });
          expect({ where, memoryLimit: typeof c.resources?.limits?.memory }).toEqual({
            where,
            memoryLimit: 'string',
          });
          expect({ where, sc: c.securityContext }).toMatchObject({
            where,
            sc: {
              runAsNonRoot: true,
              readOnlyRootFilesystem: true,
              allowPrivilegeEscalation: false,
              capabilities: { drop: ['ALL'] },
            },
          });
          if (name.startsWith('Deployment/')) {
            expect({
              where,
              live: c.livenessProbe?.httpGet.path,
              ready: c.readinessProbe?.httpGet.path,
            }).toEqual({ where, live: '/healthz', ready: '/readyz' });
            expect(pod.topologySpreadConstraints?.map((t) => t.topologyKey)).toEqual([
              'topology.kubernetes.io/zone',
              'kubernetes.io/hostname',
            ]);
          }
        }
      }
    },
  );

  describe('against the Kubernetes API schemas (kubeconform, strict, offline)', () => {
    let dir: string;
    let schemas: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-chart-'));
      schemas = ensureSchemas(
        path.join(cache, 'kube-schemas'),
        KUBE_VERSION,
        crdSources({
          keda: setting('KEDA_VERSION'),
          prometheusOperator: setting('PROMETHEUS_OPERATOR_VERSION'),
        }),
      );
    }, 120_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const validate = (file: string) =>
      spawnSync(
        kubeconform,
        ['-strict', '-summary', '-kubernetes-version', KUBE_VERSION, '-schema-location', schemas, file],
        { encoding: 'utf8' },
      );

    it('accepts every manifest rendered with the default and the production-like values', () => {
      const files = {
        default: renderText(keys),
        production: renderText(['-f', production]),
      };
      for (const [name, text] of Object.entries(files)) {
        const file = path.join(dir, `${name}.yaml`);
        writeFileSync(file, text);
        const count = parse(text).length;
        const r = validate(file);
        expect({ name, out: r.stdout.trim(), status: r.status }).toEqual({
          name,
          out: `Summary: ${count} resources found in 1 file - Valid: ${count}, Invalid: 0, Errors: 0, Skipped: 0`,
          status: 0,
        });
      }
      // The production render carries the optional kinds, so their schemas were checked too.
      expect(new Set(parse(files.production).map((o) => o.kind))).toEqual(
        new Set([
          'ServiceAccount',
          'Service',
          'Deployment',
          'HorizontalPodAutoscaler',
          'PodDisruptionBudget',
          'ScaledObject',
          'TriggerAuthentication',
          'Ingress',
          'NetworkPolicy',
          'Job',
          'Pod',
          'ServiceMonitor',
          'PrometheusRule',
          'ConfigMap',
        ]),
      );
    });

    it('rejects a manifest with a misspelt field or a wrong type', () => {
      const file = path.join(dir, 'bad.yaml');
      writeFileSync(
        file,
        renderText(keys)
          .replace('terminationGracePeriodSeconds: 15', 'terminationGracePeriodSecond: 15')
          .replace(/averageUtilization: 70/, 'averageUtilization: "seventy"'),
      );
      const r = validate(file);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain("additional properties 'terminationGracePeriodSecond' not allowed");
      expect(r.stdout).toMatch(/HorizontalPodAutoscaler rel-hookrail-\S+ is invalid/);
    });
  });

  describe('values.schema.json', () => {
    it.each([
      [
        ['--set', 'services.dispatcher.replcas=3'],
        "at '/services/dispatcher': additional properties 'replcas' not allowed",
      ],
      [['--set', 'ingres.enabled=true'], "additional properties 'ingres' not allowed"],
      [['--set', 'config.logLevel=loud'], "at '/config/logLevel': value must be one of"],
      [['--set', 'kafka.sasl.mechanism=scram-sha-512'], "at '/kafka/sasl/existingSecret'"],
      [['--set', 'services.ingest.port=70000'], "at '/services/ingest/port'"],
      [
        ['--set', 'services.ingest.resources.requests.cpu=lots'],
        "at '/services/ingest/resources/requests/cpu'",
      ],
    ])('fails helm template on %j, naming the value', (args, message) => {
      const r = helmRun(['template', 'rel', chart, ...keys, ...args]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain("values don't meet the specifications of the schema");
      expect(r.stderr).toContain(message);
    });

    it('refuses to render without the admin and encryption keys', () => {
      const r = helmRun(['template', 'rel', chart]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/secrets.adminKey is required/);
    });
  });

  describe('production-like values', () => {
    let objects: K8sObject[];
    let gateway: PodSpec;
    beforeAll(() => {
      objects = renderProduction();
      gateway = find(objects, 'Deployment', 'rel-hookrail-api-gateway').spec.template!.spec;
    });
    const env = (name: string) => gateway.containers[0].env?.find((e) => e.name === name);

    it('reads the MongoDB URI, Kafka SASL, admin and encryption keys from the existing Secrets', () => {
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
      expect(env('HOOKRAIL_MONGODB_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'hookrail-mongodb',
        key: 'url',
      });
      expect(env('HOOKRAIL_ADMIN_KEY')?.valueFrom?.secretKeyRef).toEqual({
        name: 'hookrail-keys',
        key: 'HOOKRAIL_ADMIN_KEY',
      });
      expect(env('HOOKRAIL_ENCRYPTION_KEY')?.valueFrom?.secretKeyRef?.name).toBe('hookrail-keys');
      expect(env('HOOKRAIL_KAFKA_SASL_MECHANISM')?.value).toBe('scram-sha-512');
      expect(env('HOOKRAIL_KAFKA_SASL_USERNAME')?.valueFrom?.secretKeyRef).toEqual({
        name: 'hookrail-kafka',
        key: 'username',
      });
      expect(env('HOOKRAIL_KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef?.key).toBe('password');
      expect(env('HOOKRAIL_KAFKA_TLS_CA_FILE')?.value).toBe('/etc/hookrail/kafka-ca/ca.crt');
      expect(gateway.volumes?.map((v) => v.name)).toEqual(['tmp', 'kafka-ca']);
    });

    it('runs the set-up Job as a pre-install/pre-upgrade hook, with no reference to objects the release creates', () => {
      const job = find(objects, 'Job', 'rel-hookrail-setup');
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      const pod = job.spec.template!.spec as PodSpec & { serviceAccountName?: string };
      expect(pod.containers[0].args).toEqual(['dist/setup.js']);
      expect(pod.serviceAccountName).toBeUndefined();
      const refs = (pod.containers[0].env ?? []).flatMap((e) => e.valueFrom?.secretKeyRef?.name ?? []);
      expect(new Set(refs)).toEqual(new Set(['hookrail-kafka', 'hookrail-mongodb']));
    });

    it("runs the migrations' after-rollout step as a post-install/post-upgrade hook", () => {
      const job = find(objects, 'Job', 'rel-hookrail-after-rollout');
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('post-install,post-upgrade');
      expect(job.spec.template!.spec!.containers[0].args).toEqual([
        'dist/setup.js',
        'migrate',
        'after-rollout',
      ]);
    });

    it('routes /api, /console, /portal and /portal-api to the gateway and /ingest to ingest', () => {
      const ingress = find(objects, 'Ingress', 'rel-hookrail');
      const rules = ingress.spec.rules as {
        host: string;
        http: { paths: { path: string; backend: { service: { name: string } } }[] };
      }[];
      expect(rules[0].host).toBe('hooks.example.com');
      expect(rules[0].http.paths.map((p) => [p.path, p.backend.service.name])).toEqual([
        ['/api', 'rel-hookrail-api-gateway'],
        ['/console', 'rel-hookrail-api-gateway'],
        ['/portal', 'rel-hookrail-api-gateway'],
        ['/portal-api', 'rel-hookrail-api-gateway'],
        ['/ingest', 'rel-hookrail-ingest'],
      ]);
    });

    it('scales the dispatcher on Kafka lag with KEDA instead of an HPA', () => {
      expect(
        objects.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name.endsWith('dispatcher')),
      ).toBeUndefined();
      const so = find(objects, 'ScaledObject', 'rel-hookrail-dispatcher');
      const triggers = so.spec.triggers as { type: string; metadata: Record<string, string> }[];
      expect(
        triggers.map((t) => [t.type, t.metadata.consumerGroup, t.metadata.topic, t.metadata.sasl]),
      ).toEqual([
        ['cpu', undefined, undefined, undefined],
        ['kafka', 'hookrail.dispatcher-router', 'hookrail.events', 'scram_sha512'],
        ['kafka', 'hookrail.dispatcher-sender', 'hookrail.deliveries', 'scram_sha512'],
      ]);
    });

    it('lets only the ingress controller and the release reach exposed services, and Prometheus scrape all', () => {
      const np = find(objects, 'NetworkPolicy', 'rel-hookrail-ingest');
      const from = (np.spec.ingress as { from?: unknown[] }[]).map((r) => r.from);
      expect(from).toEqual([
        [{ podSelector: { matchLabels: { 'app.kubernetes.io/instance': 'rel' } } }],
        [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
        [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      ]);
    });

    it('ships a helm test Pod that checks the gateway answers', () => {
      const pod = find(objects, 'Pod', 'rel-hookrail-test-gateway');
      expect(pod.metadata.annotations?.['helm.sh/hook']).toBe('test');
      const script = (pod.spec as unknown as PodSpec).containers[0].args.join('\n');
      expect(script).toContain('http://rel-hookrail-api-gateway:8080');
      expect(script).toContain('/readyz');
    });
  });
});
