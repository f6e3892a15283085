import { ALL_OPERATIONS, SURFACE_PREFIX, consoleOperations } from '@hookrail/api-contract';
import type { GatewayDeps } from './deps';
import type { GatewayConsole } from './console';
import { gatewayAuthenticators, gatewayOperations } from './routes';

// Handlers close over deps but are not called: binding needs only what a factory reads at once.
const deps = {
  config: { security: {} },
  metrics: { counter: () => ({}) },
} as unknown as GatewayDeps;
const handler = async () => null;
const consoleWith = (handlers: Record<string, typeof handler>) =>
  ({
    handlers,
    session: async () => undefined,
    authenticators: { console: {}, public: {} },
  }) as unknown as GatewayConsole;
const sessionHandlers = { signIn: handler, signInOptions: handler, getSession: handler, signOut: handler };

describe('the gateway serves', () => {
  it('exactly one handler for every operation of each of its surfaces, in the contract order', () => {
    const bound = gatewayOperations(deps, consoleWith(sessionHandlers));
    for (const [surface, operations] of Object.entries(bound)) {
      const declared = ALL_OPERATIONS.filter((op) => op.surface === surface);
      expect(operations.map((op) => op.operationId)).toEqual(declared.map((op) => op.operationId));
      for (const op of operations) expect(typeof op.handler).toBe('function');
    }
    expect(Object.keys(bound).sort()).toEqual(
      Object.keys(SURFACE_PREFIX)
        .filter((s) => s !== 'ingest')
        .sort(),
    );
  });

  it('refuses to start when an operation has no handler, or a handler names no operation', () => {
    const { signOut: _missing, ...withoutSignOut } = sessionHandlers;
    expect(() => gatewayOperations(deps, consoleWith(withoutSignOut))).toThrow(/signOut: no handler/);
    expect(() => gatewayOperations(deps, consoleWith({ ...sessionHandlers, refresh: handler }))).toThrow(
      /refresh: a handler for no operation/,
    );
    expect(Object.keys(consoleOperations)).toEqual(Object.keys(sessionHandlers));
  });

  it('has an authenticator for the auth kind of every operation it serves', () => {
    const authenticators = gatewayAuthenticators(deps, consoleWith(sessionHandlers), undefined) as Record<
      string,
      unknown
    >;
    const kinds = new Set(ALL_OPERATIONS.filter((op) => op.surface !== 'ingest').map((op) => op.auth));
    for (const kind of kinds) expect([kind, typeof authenticators[kind]]).toEqual([kind, 'object']);
  });
});
