import { bool, ConfigError, int, list, oneOf, optionalStr, proxyList, str, type Env } from './env';
import { changeStreamConnections, type ChangeStreamConnection } from './change-stream-connections';

export const SERVICE_NAMES = [
  'api-gateway',
  'ingest',
  'source-consumer',
  'dispatcher',
  'retry-scheduler',
  'meta-event',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Default HTTP port of each service (health, metrics, and the public API where there is one). */
export const DEFAULT_PORTS: Record<ServiceName, number> = {
  'api-gateway': 8080,
  ingest: 8081,
  'source-consumer': 8091,
  dispatcher: 8092,
  'retry-scheduler': 8093,
  'meta-event': 8094,
};

export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export interface KafkaSasl {
  mechanism: (typeof KAFKA_SASL_MECHANISMS)[number];
  username: string;
  password: string;
}

export interface HookrailConfig {
  service: ServiceName;
  instanceId: string;
  http: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    /** Proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client (`req.ip`). */
    trustedProxies: string[];
  };
  /** How often a started service checks MongoDB and Kafka, to log outages and recoveries. */
  dependencyCheckMs: number;
  log: {
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    /** One info line per HTTP request (gateway, ingest). */
    requests: boolean;
    /** One info line per delivery attempt (dispatcher). */
    attempts: boolean;
  };
  kafka: {
    brokers: string[];
    clientId: string;
    topicPrefix: string;
    partitions: number;
    replicationFactor: number;
    /** A consumer silent this long is evicted and its partitions move to another replica. */
    sessionTimeoutMs: number;
    /** TLS to the brokers (managed Kafka); `caFile` adds a private CA to the trusted ones. */
    tls?: { caFile?: string };
    sasl?: KafkaSasl;
    /**
     * How long accepting an event (events API, ingest, broker sources) waits for Kafka's
     * acknowledgement before answering 503; while Kafka is unavailable callers fail at once.
     */
    acceptTimeoutMs: number;
  };
  mongodb: { url: string };
  /** `consoleAdminKeySignIn`: whether the console's sign-in form takes keys (off: single sign-on only). */
  security: {
    adminKey?: string;
    encryptionKey?: string;
    allowPrivateTargets: boolean;
    consoleAdminKeySignIn: boolean;
  };
  /** The console's single sign-on (OpenID Connect); absent when HOOKRAIL_OIDC_ISSUER is not set. */
  oidc?: OidcConfig;
  /**
   * `cliRelay`: where the dispatcher hands the attempts at `cli` endpoints (`hookrail listen`):
   * the gateway as the cluster reaches it. `cliRelayAdvertise`: this gateway replica as the other
   * replicas reach it (its pod address), default `http://127.0.0.1:<port>`.
   */
  urls: { gatewayPublic: string; ingestPublic: string; cliRelay: string; cliRelayAdvertise: string };
  /**
   * Broker sources: where this deployment's SQS and Pub/Sub are, and whether sources may connect
   * to private, loopback and link-local hosts (otherwise refused like webhooks to them).
   */
  brokers: { sqsEndpoint?: string; pubsubEmulatorHost?: string; allowPrivateHosts: boolean };
  /** `db_change_stream` sources: the connections the operator named (change-stream-connections.ts). */
  changeStreams: { connections: ReadonlyMap<string, ChangeStreamConnection> };
  smtp: { url?: string; from: string };
  /**
   * Requests per window and client (0: unlimited), counted by each replica on its own: API keys
   * and projects on the management API, portal links, ingest sources.
   */
  rateLimits: { windowMs: number; apiKey: number; project: number; portalLink: number; source: number };
  /** Background clean-up (retry-scheduler): purge of deleted projects, retention. */
  housekeeping: { intervalMs: number };
  /** The gateway's audit log: sent events' calls are recorded one aggregate per window. */
  audit: { publishWindowMs: number };
  telemetry: { tracesExporter: 'none' | 'console' | 'otlp'; otlpEndpoint?: string };
}

/**
 * The only place that reads environment variables. Every variable is listed in the README's
 * configuration table; the result is frozen and passed down explicitly.
 */
export function loadConfig(service: ServiceName, env: Env = process.env): Readonly<HookrailConfig> {
  const port = int(env, 'HOOKRAIL_HTTP_PORT', DEFAULT_PORTS[service], { min: 0, max: 65535 });
  const host = str(env, 'HOOKRAIL_HTTP_HOST', '127.0.0.1');
  const config: HookrailConfig = {
    service,
    instanceId: str(env, 'HOSTNAME', `${service}-${process.pid}`),
    http: {
      host,
      port,
      bodyLimitBytes: int(env, 'HOOKRAIL_HTTP_BODY_LIMIT_BYTES', 5 * 1024 * 1024, { min: 1024 }),
      trustedProxies: proxyList(env, 'HOOKRAIL_TRUSTED_PROXIES'),
    },
    dependencyCheckMs: int(env, 'HOOKRAIL_DEPENDENCY_CHECK_MS', 5000, { min: 100, max: 600_000 }),
    log: {
      level: oneOf(
        env,
        'HOOKRAIL_LOG_LEVEL',
        ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
        'info',
      ),
      requests: bool(env, 'HOOKRAIL_LOG_REQUESTS', true),
      attempts: bool(env, 'HOOKRAIL_LOG_ATTEMPTS', true),
    },
    kafka: {
      brokers: list(env, 'HOOKRAIL_KAFKA_BROKERS', ['127.0.0.1:9092']),
      clientId: str(env, 'HOOKRAIL_KAFKA_CLIENT_ID', `hookrail-${service}`),
      topicPrefix: str(env, 'HOOKRAIL_KAFKA_TOPIC_PREFIX', 'hookrail'),
      partitions: int(env, 'HOOKRAIL_KAFKA_PARTITIONS', 12, { min: 1, max: 1000 }),
      replicationFactor: int(env, 'HOOKRAIL_KAFKA_REPLICATION_FACTOR', 1, { min: 1, max: 7 }),
      sessionTimeoutMs: int(env, 'HOOKRAIL_KAFKA_SESSION_TIMEOUT_MS', 30_000, { min: 6000, max: 300_000 }),
      ...kafkaSecurity(env),
      acceptTimeoutMs: int(env, 'HOOKRAIL_KAFKA_ACCEPT_TIMEOUT_MS', 2000, { min: 100, max: 60_000 }),
    },
    mongodb: { url: str(env, 'HOOKRAIL_MONGODB_URL', 'mongodb://127.0.0.1:27017/hookrail') },
    security: {
      adminKey: optionalStr(env, 'HOOKRAIL_ADMIN_KEY'),
      encryptionKey: optionalStr(env, 'HOOKRAIL_ENCRYPTION_KEY'),
      allowPrivateTargets: bool(env, 'HOOKRAIL_ALLOW_PRIVATE_TARGETS', false),
      consoleAdminKeySignIn: bool(env, 'HOOKRAIL_CONSOLE_KEY_SIGN_IN', true),
    },
    ...oidcConfig(env),
    urls: {
      gatewayPublic: str(env, 'HOOKRAIL_PUBLIC_URL', `http://127.0.0.1:${DEFAULT_PORTS['api-gateway']}`),
      ingestPublic: str(env, 'HOOKRAIL_INGEST_PUBLIC_URL', `http://127.0.0.1:${DEFAULT_PORTS.ingest}`),
      cliRelay: str(env, 'HOOKRAIL_CLI_RELAY_URL', `http://127.0.0.1:${DEFAULT_PORTS['api-gateway']}`),
      cliRelayAdvertise: str(env, 'HOOKRAIL_CLI_RELAY_ADVERTISE_URL', `http://127.0.0.1:${port}`),
    },
    brokers: {
      sqsEndpoint: optionalStr(env, 'HOOKRAIL_SQS_ENDPOINT'),
      pubsubEmulatorHost: optionalStr(env, 'PUBSUB_EMULATOR_HOST'),
      allowPrivateHosts: bool(env, 'HOOKRAIL_ALLOW_PRIVATE_BROKERS', false),
    },
    changeStreams: { connections: changeStreamConnections(env) },
    rateLimits: {
      windowMs: int(env, 'HOOKRAIL_RATE_LIMIT_WINDOW_MS', 60_000, { min: 1000, max: 3_600_000 }),
      apiKey: int(env, 'HOOKRAIL_RATE_LIMIT_API_KEY', 60_000, { min: 0, max: 100_000_000 }),
      project: int(env, 'HOOKRAIL_RATE_LIMIT_PROJECT', 120_000, { min: 0, max: 100_000_000 }),
      portalLink: int(env, 'HOOKRAIL_RATE_LIMIT_PORTAL_LINK', 6000, { min: 0, max: 100_000_000 }),
      source: int(env, 'HOOKRAIL_RATE_LIMIT_SOURCE', 120_000, { min: 0, max: 100_000_000 }),
    },
    housekeeping: {
      intervalMs: int(env, 'HOOKRAIL_HOUSEKEEPING_INTERVAL_MS', 60_000, { min: 1000, max: 86_400_000 }),
    },
    audit: {
      publishWindowMs: int(env, 'HOOKRAIL_AUDIT_PUBLISH_WINDOW_MS', 60_000, { min: 100, max: 3_600_000 }),
    },
    smtp: {
      url: optionalStr(env, 'HOOKRAIL_SMTP_URL'),
      from: str(env, 'HOOKRAIL_SMTP_FROM', 'hookrail@localhost'),
    },
    telemetry: {
      tracesExporter: oneOf(env, 'OTEL_TRACES_EXPORTER', ['none', 'console', 'otlp'], 'none'),
      otlpEndpoint: optionalStr(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
    },
  };
  return deepFreeze(config);
}

/**
 * Which group of the identity provider holds which role: on the whole instance, and per project
 * (by project id). Role names are checked by the gateway against its role table.
 */
export interface OidcRoleMapping {
  instance: Record<string, string>;
  projects: Record<string, Record<string, string>>;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** The ID token claim that lists the person's groups (`groups`, Azure AD's `roles`, …). */
  groupsClaim: string;
  roleMapping: OidcRoleMapping;
  /** How often a session asks the provider for a fresh token: a removed person's session ends then. */
  refreshSeconds: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

function stringMap(value: unknown, what: string): Record<string, string> {
  if (!isObject(value))
    throw new ConfigError(`HOOKRAIL_OIDC_ROLE_MAPPING: ${what} must be an object of group → role`);
  for (const [group, role] of Object.entries(value))
    if (typeof role !== 'string')
      throw new ConfigError(`HOOKRAIL_OIDC_ROLE_MAPPING: ${what}.${group} must be a role name`);
  return value as Record<string, string>;
}

/** `{"instance": {group: role}, "projects": {projectId: {group: role}}}`, both parts optional. */
function roleMapping(env: Env): OidcRoleMapping {
  const raw = str(env, 'HOOKRAIL_OIDC_ROLE_MAPPING', '{}');
  let parsed: { instance?: unknown; projects?: unknown };
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    throw new ConfigError('HOOKRAIL_OIDC_ROLE_MAPPING is not valid JSON');
  }
  const projects = isObject(parsed) ? (parsed.projects ?? {}) : undefined;
  if (!isObject(parsed) || !isObject(projects))
    throw new ConfigError('HOOKRAIL_OIDC_ROLE_MAPPING must be {"instance": {…}, "projects": {…}}');
  return {
    instance: stringMap(parsed.instance ?? {}, 'instance'),
    projects: Object.fromEntries(
      Object.entries(projects).map(([id, groups]) => [id, stringMap(groups, `projects.${id}`)]),
    ),
  };
}

function oidcConfig(env: Env): { oidc?: OidcConfig } {
  const issuer = optionalStr(env, 'HOOKRAIL_OIDC_ISSUER');
  if (!issuer) return {};
  return {
    oidc: {
      issuer,
      clientId: str(env, 'HOOKRAIL_OIDC_CLIENT_ID'),
      clientSecret: str(env, 'HOOKRAIL_OIDC_CLIENT_SECRET'),
      scopes: list(env, 'HOOKRAIL_OIDC_SCOPES', ['openid', 'email', 'profile', 'groups', 'offline_access']),
      groupsClaim: str(env, 'HOOKRAIL_OIDC_GROUPS_CLAIM', 'groups'),
      roleMapping: roleMapping(env),
      refreshSeconds: int(env, 'HOOKRAIL_OIDC_REFRESH_SECONDS', 300, { min: 10, max: 86_400 }),
    },
  };
}

/** TLS and SASL settings; both absent means plaintext, as on a local broker. */
function kafkaSecurity(env: Env): Pick<HookrailConfig['kafka'], 'tls' | 'sasl'> {
  const caFile = optionalStr(env, 'HOOKRAIL_KAFKA_TLS_CA_FILE');
  const tls = bool(env, 'HOOKRAIL_KAFKA_TLS', caFile !== undefined);
  if (caFile && !tls)
    throw new ConfigError('HOOKRAIL_KAFKA_TLS_CA_FILE is set but HOOKRAIL_KAFKA_TLS is false');
  const mechanism = optionalStr(env, 'HOOKRAIL_KAFKA_SASL_MECHANISM');
  const out: Pick<HookrailConfig['kafka'], 'tls' | 'sasl'> = {};
  if (tls) out.tls = caFile ? { caFile } : {};
  if (mechanism !== undefined) {
    out.sasl = {
      mechanism: oneOf(env, 'HOOKRAIL_KAFKA_SASL_MECHANISM', KAFKA_SASL_MECHANISMS, 'plain'),
      username: str(env, 'HOOKRAIL_KAFKA_SASL_USERNAME'),
      password: str(env, 'HOOKRAIL_KAFKA_SASL_PASSWORD'),
    };
  } else if (optionalStr(env, 'HOOKRAIL_KAFKA_SASL_USERNAME')) {
    throw new ConfigError('HOOKRAIL_KAFKA_SASL_USERNAME is set but HOOKRAIL_KAFKA_SASL_MECHANISM is not');
  }
  return out;
}

function deepFreeze<T>(obj: T): Readonly<T> {
  for (const value of Object.values(obj as object)) {
    if (value && typeof value === 'object') deepFreeze(value);
  }
  return Object.freeze(obj);
}
