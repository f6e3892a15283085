/**
 * Offline Kubernetes JSON schemas for kubeconform, made from sources on the Go module proxy:
 * - the API's OpenAPI v2 document, `api/openapi-spec/swagger.json` of the k8s.io/kubernetes module;
 * - the CRDs of the optional kinds the chart renders: KEDA's (`config/crd/bases/*.yaml` of
 *   github.com/kedacore/keda/v2) and the Prometheus operator's (`example/prometheus-operator-crd/`).
 * Written in kubeconform's own layout, `<dir>/v<version>-standalone-strict/<kind>-<group>-<version>.json`,
 * so `kubeconform -strict -schema-location <dir> -kubernetes-version <version>` needs no network.
 * "Strict" as kubeconform means it: an object that lists its properties accepts no other key, so a
 * misspelt field in a manifest fails validation.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

type Schema = Record<string, unknown>;
interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const INT_OR_STRING = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
const QUANTITY = { oneOf: [{ type: 'string' }, { type: 'number' }] };

/** kubeconform's file name for a kind: `deployment-apps-v1.json`, `service-v1.json`. */
export function schemaFileName({ group, version, kind }: Gvk): string {
  const groupPart = group === '' ? '' : `-${group.split('.')[0].toLowerCase()}`;
  return `${kind.toLowerCase()}${groupPart}-${version.toLowerCase()}.json`;
}

/** A copy of `schema` where objects with listed properties accept no others, and int-or-string is both. */
export function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  if (s.format === 'int-or-string' || s['x-kubernetes-int-or-string'] === true) return INT_OR_STRING;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    // Property names are data, not schema keywords: never rewrite the map itself.
    if (k === 'properties' || k === 'definitions' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, sub]) => [name, strict(sub)]));
    } else {
      out[k] = strict(v);
    }
  }
  if (
    out.properties &&
    out.additionalProperties === undefined &&
    out['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    out.additionalProperties = false;
  }
  return out;
}

/** Definition names `schema` refers to (`#/definitions/<name>`), directly. */
function refsOf(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, into));
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/'))
        into.add(v.slice('#/definitions/'.length));
      else refsOf(v, into);
    }
  }
}

/** One standalone schema per kind of the OpenAPI v2 document: the kind plus the definitions it reaches. */
export function schemasFromOpenApi(swagger: { definitions: Record<string, Schema> }): Map<string, Schema> {
  const defs: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(swagger.definitions)) {
    if (name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') defs[name] = QUANTITY;
    else defs[name] = strict(def) as Schema;
  }
  const out = new Map<string, Schema>();
  for (const [name, def] of Object.entries(swagger.definitions)) {
    const gvks = def['x-kubernetes-group-version-kind'] as Gvk[] | undefined;
    if (!gvks) continue;
    const reached = new Set<string>();
    const queue = [name];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (reached.has(next)) continue;
      reached.add(next);
      const refs = new Set<string>();
      refsOf(defs[next], refs);
      queue.push(...refs);
    }
    reached.delete(name);
    const definitions = Object.fromEntries([...reached].sort().map((n) => [n, defs[n]]));
    for (const gvk of gvks) {
      out.set(schemaFileName(gvk), { ...defs[name], definitions });
    }
  }
  return out;
}

interface Crd {
  kind: string;
  spec: {
    group: string;
    names: { kind: string };
    versions: { name: string; schema?: { openAPIV3Schema: Schema } }[];
  };
}

/** One schema per served version of each CustomResourceDefinition in the YAML text. */
export function schemasFromCrds(yamlText: string): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const doc of parseAllDocuments(yamlText)) {
    const crd = doc.toJSON() as Crd | null;
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    for (const v of crd.spec.versions) {
      if (!v.schema) continue;
      const gvk = { group: crd.spec.group, version: v.name, kind: crd.spec.names.kind };
      out.set(schemaFileName(gvk), strict(v.schema.openAPIV3Schema) as Schema);
    }
  }
  return out;
}

/** The directory of a module version in the Go module cache (downloads it when missing). */
export function goModuleDir(module: string, version: string): string {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' },
  });
  const info = JSON.parse(out) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download ${module}@${version}: ${info.Error ?? 'no directory'}`);
  return info.Dir;
}

/** Go modules whose CRD files give the schemas of the optional kinds (ScaledObject, PrometheusRule, ...). */
export interface CrdSource {
  module: string;
  version: string;
  /** Folder of the CRD YAML files inside the module. */
  dir: string;
}

export const crdSources = (versions: { keda: string; prometheusOperator: string }): CrdSource[] => [
  { module: 'github.com/kedacore/keda/v2', version: `v${versions.keda}`, dir: 'config/crd/bases' },
  {
    module: 'github.com/prometheus-operator/prometheus-operator',
    version: `v${versions.prometheusOperator}`,
    dir: 'example/prometheus-operator-crd',
  },
];

/**
 * Writes the schemas for `kubernetesVersion` (+ the CRDs) under `dir` once; later calls find them.
 * Returns the directory to pass to kubeconform's -schema-location.
 */
export function ensureSchemas(dir: string, kubernetesVersion: string, crds: CrdSource[]): string {
  const target = path.join(dir, `v${kubernetesVersion}-standalone-strict`);
  const stamp = [kubernetesVersion, ...crds.map((c) => `${c.module}@${c.version}`)].join('\n');
  const complete = path.join(target, '.complete');
  if (existsSync(complete) && readFileSync(complete, 'utf8') === stamp) return dir;
  const k8s = goModuleDir('k8s.io/kubernetes', `v${kubernetesVersion}`);
  const schemas = schemasFromOpenApi(
    JSON.parse(readFileSync(path.join(k8s, 'api/openapi-spec/swagger.json'), 'utf8')) as {
      definitions: Record<string, Schema>;
    },
  );
  for (const crd of crds) {
    const crdDir = path.join(goModuleDir(crd.module, crd.version), crd.dir);
    for (const f of readdirSync(crdDir).filter((n) => n.endsWith('.yaml'))) {
      for (const [name, schema] of schemasFromCrds(readFileSync(path.join(crdDir, f), 'utf8')))
        schemas.set(name, schema);
    }
  }
  const tmp = `${target}.tmp.${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [name, schema] of schemas) writeFileSync(path.join(tmp, name), JSON.stringify(schema));
  writeFileSync(path.join(tmp, '.complete'), stamp);
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  return dir;
}
