import { ConfigError, loadConfig } from './index';

describe('loadConfig', () => {
  it('gives every service working local defaults', () => {
    const c = loadConfig('api-gateway', {});
    expect(c.http).toEqual({
      host: '127.0.0.1',
      port: 8080,
      bodyLimitBytes: 5 * 1024 * 1024,
      trustedProxies: [],
    });
    expect(c.kafka.brokers).toEqual(['127.0.0.1:9092']);
    expect(c.kafka.topicPrefix).toBe('hookrail');
    expect(c.mongodb.url).toBe('mongodb://127.0.0.1:27017/hookrail');
    expect(c.security.allowPrivateTargets).toBe(false);
    expect(loadConfig('ingest', {}).http.port).toBe(8081);
    expect(loadConfig('dispatcher', {}).http.port).toBe(8092);
  });

  it('reads and types the environment', () => {
    const c = loadConfig('dispatcher', {
      HOOKRAIL_HTTP_PORT: '9000',
      HOOKRAIL_KAFKA_BROKERS: 'k1:9092, k2:9092',
      HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
      HOOKRAIL_LOG_LEVEL: 'debug',
    });
    expect(c.http.port).toBe(9000);
    expect(c.kafka.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(c.security.allowPrivateTargets).toBe(true);
    expect(c.log.level).toBe('debug');
  });

  it('reads the trusted proxies and refuses one that is not an address, a range or a known name', () => {
    expect(
      loadConfig('api-gateway', { HOOKRAIL_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7, fd00::/8, loopback' })
        .http.trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback']);
    for (const bad of ['ingress-nginx', '10.0.0.0/33', '10.0.0.1/8/8', 'fd00::/129', '300.1.1.1'])
      expect(() => loadConfig('api-gateway', { HOOKRAIL_TRUSTED_PROXIES: bad })).toThrow(
        new ConfigError(
          `HOOKRAIL_TRUSTED_PROXIES: "${bad}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
        ),
      );
  });

  it('reads Kafka TLS and SASL, plaintext when unset', () => {
    expect(loadConfig('ingest', {}).kafka).not.toHaveProperty('sasl');
    expect(loadConfig('ingest', {}).kafka).not.toHaveProperty('tls');
    const c = loadConfig('ingest', {
      HOOKRAIL_KAFKA_SASL_MECHANISM: 'scram-sha-512',
      HOOKRAIL_KAFKA_SASL_USERNAME: 'hookrail',
      HOOKRAIL_KAFKA_SASL_PASSWORD: 's3cret',
      HOOKRAIL_KAFKA_TLS_CA_FILE: '/etc/kafka-ca/ca.crt',
    });
    expect(c.kafka.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'hookrail', password: 's3cret' });
    expect(c.kafka.tls).toEqual({ caFile: '/etc/kafka-ca/ca.crt' });
    expect(loadConfig('ingest', { HOOKRAIL_KAFKA_TLS: 'true' }).kafka.tls).toEqual({});
  });

  it('names the Kafka security variable that is wrong or missing', () => {
    expect(() =>
      loadConfig('ingest', { HOOKRAIL_KAFKA_SASL_MECHANISM: 'plain', HOOKRAIL_KAFKA_SASL_USERNAME: 'u' }),
    ).toThrow('HOOKRAIL_KAFKA_SASL_PASSWORD is required');
    expect(() => loadConfig('ingest', { HOOKRAIL_KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /HOOKRAIL_KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512/,
    );
    expect(() => loadConfig('ingest', { HOOKRAIL_KAFKA_SASL_USERNAME: 'u' })).toThrow(
      'HOOKRAIL_KAFKA_SASL_USERNAME is set but HOOKRAIL_KAFKA_SASL_MECHANISM is not',
    );
    expect(() =>
      loadConfig('ingest', { HOOKRAIL_KAFKA_TLS: 'false', HOOKRAIL_KAFKA_TLS_CA_FILE: '/ca.crt' }),
    ).toThrow(ConfigError);
  });

  it('is frozen so nothing can change it after start-up', () => {
    const c = loadConfig('ingest', {});
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.kafka)).toBe(true);
  });

  it.each([
    [{ HOOKRAIL_HTTP_PORT: 'eighty' }, /HOOKRAIL_HTTP_PORT must be an integer/],
    [{ HOOKRAIL_HTTP_PORT: '70000' }, /HOOKRAIL_HTTP_PORT must be <= 65535/],
    [{ HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'maybe' }, /HOOKRAIL_ALLOW_PRIVATE_TARGETS must be true or false/],
    [{ HOOKRAIL_LOG_LEVEL: 'loud' }, /HOOKRAIL_LOG_LEVEL must be one of/],
  ])('rejects %p with a message naming the variable', (env, message) => {
    expect(() => loadConfig('ingest', env)).toThrow(ConfigError);
    expect(() => loadConfig('ingest', env)).toThrow(message);
  });

  it('reads the single sign-on settings only when an issuer is set', () => {
    expect(loadConfig('api-gateway', {}).oidc).toBeUndefined();
    expect(loadConfig('api-gateway', {}).security.consoleAdminKeySignIn).toBe(true);
    const c = loadConfig('api-gateway', {
      HOOKRAIL_OIDC_ISSUER: 'https://idp.example.com',
      HOOKRAIL_OIDC_CLIENT_ID: 'hookrail',
      HOOKRAIL_OIDC_CLIENT_SECRET: 's3cret',
      HOOKRAIL_OIDC_ROLE_MAPPING: '{"instance":{"ops":"owner"},"projects":{"01P":{"support":"viewer"}}}',
      HOOKRAIL_CONSOLE_KEY_SIGN_IN: 'false',
    });
    expect(c.oidc).toMatchObject({
      issuer: 'https://idp.example.com',
      scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
      groupsClaim: 'groups',
      roleMapping: { instance: { ops: 'owner' }, projects: { '01P': { support: 'viewer' } } },
    });
    expect(c.security.consoleAdminKeySignIn).toBe(false);
  });

  const ISSUER = { HOOKRAIL_OIDC_ISSUER: 'https://idp.example.com' };
  const CLIENT = { ...ISSUER, HOOKRAIL_OIDC_CLIENT_ID: 'c', HOOKRAIL_OIDC_CLIENT_SECRET: 's' };
  it.each([
    [ISSUER, /HOOKRAIL_OIDC_CLIENT_ID is required/],
    [{ ...ISSUER, HOOKRAIL_OIDC_CLIENT_ID: 'c' }, /HOOKRAIL_OIDC_CLIENT_SECRET is required/],
    [{ ...CLIENT, HOOKRAIL_OIDC_ROLE_MAPPING: '{' }, /HOOKRAIL_OIDC_ROLE_MAPPING is not valid JSON/],
    [{ ...CLIENT, HOOKRAIL_OIDC_ROLE_MAPPING: '[]' }, /HOOKRAIL_OIDC_ROLE_MAPPING must be/],
    [{ ...CLIENT, HOOKRAIL_OIDC_ROLE_MAPPING: '{"instance":{"ops":1}}' }, /instance.ops must be a role name/],
    [{ ...CLIENT, HOOKRAIL_OIDC_ROLE_MAPPING: '{"projects":{"p":"owner"}}' }, /projects.p must be an object/],
  ])('refuses single sign-on settings %p, naming the problem', (env, message) => {
    expect(() => loadConfig('api-gateway', env)).toThrow(message);
  });
});
