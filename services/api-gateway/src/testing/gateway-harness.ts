/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON, checked against the OpenAPI schema instead of a type */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { RunningService } from '@hookrail/runtime';
import type { Bus, MessageOf, TopicKey } from '@hookrail/bus';
import { connectTestStore, startTestService, testBus, testConfig, uniquePrefix } from '@hookrail/testkit';
import type { Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { definition } from '../service';
import { asProjectId, type ProjectId } from '@hookrail/domain';

// starting a gateway creates its Kafka topics, which can take seconds on a busy machine
jest.setTimeout(30_000);

export const ADMIN_KEY = 'hr_admin.test-admin-key-0123456789';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: { status: boolean; message: string; data: T };
}

interface Operation {
  method: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: { 'application/json'?: { schema: unknown } } }>;
}

/**
 * Checks every response a test receives against the gateway's own /api/openapi.json: the status must
 * be documented for the operation and the body must match its schema.
 */
export class OpenApiChecker {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly ops: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  readonly seen = new Set<string>();

  constructor(readonly doc: any) {
    addFormats(this.ajv);
    this.ajv.addSchema({ components: doc.components }, 'doc');
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      const params = (path.match(/\{/g) ?? []).length;
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, op] of Object.entries(methods))
        this.ops.push({ method, pattern, params, responses: op.responses });
    }
    // literal segments win over parameters (`endpoints/oauth2/test` before `endpoints/{id}`)
    this.ops.sort((a, b) => a.params - b.params);
  }

  check(method: string, path: string, status: number, body: unknown): void {
    const op = this.ops.find((o) => o.method === method.toLowerCase() && o.pattern.test(path));
    if (!op) throw new Error(`${method} ${path} is not in the OpenAPI document`);
    const response = op.responses[String(status)];
    if (!response)
      throw new Error(`${method} ${path} answered ${status}, which the OpenAPI document does not list`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return;
    const key = `${method} ${op.pattern.source} ${status}`;
    let validateFn = this.validators.get(key);
    if (!validateFn) {
      validateFn = this.ajv.compile(
        JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components')),
      );
      this.validators.set(key, validateFn);
    }
    if (!validateFn(body))
      throw new Error(
        `${method} ${path} ${status}: body does not match the OpenAPI document: ${this.ajv.errorsText(validateFn.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    this.seen.add(`${method.toLowerCase()} ${op.pattern.source}`);
  }
}

/** One gateway per test file, real Kafka and MongoDB-protocol server. */
export class GatewayHarness {
  gateway!: RunningService;
  store!: Store;
  checker!: OpenApiChecker;
  readonly prefix = uniquePrefix('gw');
  private bus?: Bus;

  async start(env: Record<string, string> = {}, logger?: Logger): Promise<void> {
    this.store = await connectTestStore();
    this.gateway = await startTestService({
      ...definition(testConfig('api-gateway', { HOOKRAIL_KAFKA_TOPIC_PREFIX: this.prefix, ...env })),
      logger,
    });
    const res = await fetch(`${this.gateway.url}/api/openapi.json`);
    this.checker = new OpenApiChecker(await res.json());
  }

  async stop(): Promise<void> {
    await this.bus?.close();
    await this.gateway?.stop();
    await this.store?.close();
  }

  /** Starts a consumer on one of the gateway's topics; the returned array fills as messages arrive. */
  async collect<K extends TopicKey>(topic: K): Promise<MessageOf<K>[]> {
    this.bus ??= testBus(this.prefix);
    const seen: MessageOf<K>[] = [];
    await this.bus.consume(`collect-${topic}`, { topic, handle: async (m) => void seen.push(m) });
    return seen;
  }

  /** A JSON request; the response is checked against the OpenAPI document unless `raw` is set. */
  async call<T = any>(
    method: string,
    path: string,
    opts: {
      key?: string | null;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      unchecked?: boolean;
      /** Where the path is mounted: the management API by default, or the portal API. */
      surface?: '/api' | '/portal-api';
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.gateway.url}${opts.surface ?? '/api'}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 500)}`);
    }
    // the document's paths are under /api; the portal's are written out in full
    const documented = opts.surface === '/portal-api' ? `/portal-api${path}` : path;
    if (!opts.unchecked) this.checker.check(method, documented.split('?')[0], res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** A portal API call with a link's token, checked against the same document. */
  portal<T = any>(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<ApiResponse<T>> {
    return this.call<T>(method, path, { key: token, body, surface: '/portal-api' });
  }

  /** Creates a project with the admin key; returns its id and first API key. */
  async createProject(
    type: 'incoming' | 'outgoing' = 'outgoing',
    config: Record<string, unknown> = {},
  ): Promise<{ id: ProjectId; key: string }> {
    const res = await this.call('POST', '/v1/projects', {
      key: ADMIN_KEY,
      body: { name: `p-${uniquePrefix()}`, type, config },
    });
    if (res.status !== 201) throw new Error(`project create failed: ${JSON.stringify(res.body)}`);
    return { id: asProjectId(res.body.data.uid), key: res.body.data.api_key.key };
  }

  /** What a subscription needs: an HTTP source and an endpoint, created in the project. */
  async createSourceAndEndpoint(p: {
    id: string;
    key: string;
  }): Promise<{ sourceId: string; endpointId: string }> {
    const create = async (resource: string, body: Record<string, unknown>): Promise<string> => {
      const res = await this.call('POST', `/v1/projects/${p.id}/${resource}`, { key: p.key, body });
      if (res.status !== 201) throw new Error(`${resource} create failed: ${JSON.stringify(res.body)}`);
      return res.body.data.uid;
    };
    return {
      sourceId: await create('sources', { name: 'src', type: 'http' }),
      endpointId: await create('endpoints', { name: 'ep', url: 'https://e.com' }),
    };
  }
}
