import { Type } from '@sinclair/typebox';
import { SURFACE_PREFIX, defineOperations, type OperationShape } from './operation';
import { ALL_OPERATIONS } from './operations';
import { memberOperations } from './management/members.operations';

describe('the contract', () => {
  it('names each operation once over every surface (operationIds are the OpenAPI document’s keys)', () => {
    const ids = ALL_OPERATIONS.map((op) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares each method and path once', () => {
    const routes = ALL_OPERATIONS.map((op) => `${op.method} ${SURFACE_PREFIX[op.surface]}${op.path}`);
    expect(routes.filter((r, i) => routes.indexOf(r) !== i)).toEqual([]);
  });

  it('gives every operation a summary readers can use and a body only where the method takes one', () => {
    for (const op of ALL_OPERATIONS) {
      expect(op.summary).not.toMatch(/\(operation \d+\)/);
      if (op.method === 'get' || op.method === 'delete') expect(op.body).toBeUndefined();
    }
  });
});

describe('what each operation declares for the gateway to enforce', () => {
  it('changes configuration only by a call that has a project to announce it for, never by a GET', () => {
    const wrong = ALL_OPERATIONS.filter(
      (op) =>
        op.changesConfiguration &&
        (op.method === 'get' || (op.surface !== 'portal' && !op.path.includes(':projectID'))),
    );
    expect(wrong.map((op) => op.operationId)).toEqual([]);
  });

  it('changes configuration exactly where it configures or owns, but for the named exceptions', () => {
    // createProject and listApiKeys have no project's configuration to announce (a new project has
    // no dispatcher cache; a key list reads); refreshing a portal link's key changes no routing;
    // unblocking an ordered key releases held deliveries, which the dispatchers must see at once.
    // A listen answer is none of these: announcing one dropped the caches on every answer.
    // The roles assigned to people (members) are no configuration the dispatchers read.
    const members = Object.keys(memberOperations);
    const exceptions = ['createProject', 'listApiKeys', 'refreshPortalLinkAuthKey', 'unblockKey', ...members];
    const differing = ALL_OPERATIONS.filter(
      (op) => op.changesConfiguration !== (op.permission === 'configure' || op.permission === 'own'),
    );
    expect(differing.map((op) => op.operationId).sort()).toEqual(exceptions.sort());
  });

  it('lets no read operation change anything', () => {
    const wrong = ALL_OPERATIONS.filter((op) => op.permission === 'read' && op.changesConfiguration);
    expect(wrong.map((op) => op.operationId)).toEqual([]);
  });

  const base = { method: 'post', path: '/x', summary: 's', tag: 't', auth: 'project', status: 200 } as const;
  const rest = { message: 'm', response: Type.Null() };

  // Each planted operation fails twice: `tsc` on the @ts-expect-error (the line would compile
  // otherwise), and at load when a cast got it past the type checker.
  it('refuses an operation without a permission, without changesConfiguration, or with an unknown permission', () => {
    // @ts-expect-error -- permission is required
    const noPermission: OperationShape = { ...base, ...rest, changesConfiguration: false };
    // @ts-expect-error -- changesConfiguration is required
    const noEffect: OperationShape = { ...base, ...rest, permission: 'read' };
    // @ts-expect-error -- a permission outside the vocabulary
    const unknown: OperationShape = { ...base, ...rest, permission: 'admin', changesConfiguration: true };
    const define = (planted: OperationShape) => () => defineOperations('api', { planted });
    expect(define(noPermission)).toThrow(/planted: permission/);
    expect(define(noEffect)).toThrow(/planted: changesConfiguration/);
    expect(define(unknown)).toThrow(/planted: permission/);
  });
});
