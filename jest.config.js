// One jest configuration for the whole monorepo: `unit` needs nothing running, `integration` runs
// against the real servers started once by deploy/local (see jest.global-setup.js), `chaos` too
// (kills, outages, restarts, fuzzing: the slow half of the robustness tests), `image` runs
// the services from the built image against the same servers (jest.image-setup.js builds it).
// `k8s` installs the chart on a single-node Kubernetes that jest.k8s-setup.js brings up (and
// deploy/k8s/test-env.sh down removes). deploy/local/test.sh runs `image` and `k8s` after the
// others, each alone: they start containers and a cluster of their own.
const esmDeps = [
  'got',
  '@sindresorhus',
  '@szmarczak',
  'cacheable-lookup',
  'cacheable-request',
  'decompress-response',
  'form-data-encoder',
  'lowercase-keys',
  'p-cancelable',
  'responselike',
  'mimic-response',
  'normalize-url',
  'keyv',
  'http2-wrapper',
  'type-fest',
  'byte-counter',
  'chunk-data',
  'get-stream',
  'is-stream',
  '@sec-ant',
  'ulid',
  'jose',
  'p-timeout',
  'openid-client',
  'oauth4webapi',
];
const shared = {
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmDeps.join('|')})/)`],
  moduleNameMapper: {
    '^@hookrail/cli$': '<rootDir>/apps/cli/src/index.ts',
    '^@hookrail/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/.local/', '/dist/'],
  // .local holds the servers' data and the checkouts `npm run bench:compare` measures (their
  // packages would otherwise be found twice).
  modulePathIgnorePatterns: ['<rootDir>/.local/'],
  rootDir: __dirname,
};
module.exports = {
  // Global (jest ignores it inside `projects`): integration tests wait on real servers.
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,apps,services,deploy,tools,docs,bench}/**/*.spec.ts'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.(int|chaos|image|k8s)\\.spec\\.ts$'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,apps,services,charts,deploy,tools,docs}/**/*.int.spec.ts'],
      globalSetup: '<rootDir>/jest.global-setup.js',
      globalTeardown: '<rootDir>/jest.integration-teardown.js',
      setupFiles: ['<rootDir>/jest.integration-setup.js'],
    },
    {
      // Processes SIGKILLed, servers cut off or restarted, hostile input fuzzed: the same servers
      // and set-up as integration, in a phase of its own so the everyday loop stays short.
      ...shared,
      displayName: 'chaos',
      testMatch: ['<rootDir>/{libs,apps,services}/**/*.chaos.spec.ts'],
      globalSetup: '<rootDir>/jest.global-setup.js',
      globalTeardown: '<rootDir>/jest.integration-teardown.js',
      setupFiles: ['<rootDir>/jest.integration-setup.js'],
    },
    {
      ...shared,
      displayName: 'image',
      testMatch: ['<rootDir>/deploy/docker/**/*.image.spec.ts'],
      globalSetup: '<rootDir>/jest.image-setup.js',
      setupFiles: ['<rootDir>/jest.integration-setup.js'],
    },
    {
      ...shared,
      displayName: 'k8s',
      testMatch: ['<rootDir>/deploy/k8s/**/*.k8s.spec.ts'],
      globalSetup: '<rootDir>/jest.k8s-setup.js',
      globalTeardown: '<rootDir>/jest.k8s-teardown.js',
    },
  ],
};
