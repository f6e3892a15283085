import { defineOperations } from './operation';
import { Type } from '@sinclair/typebox';
import { bindHandlers } from './bind-handlers';

const shape = {
  summary: 's',
  tag: 't',
  auth: 'project',
  permission: 'read',
  changesConfiguration: false,
  status: 200,
  message: 'm',
  response: Type.Null(),
} as const;
const ops = Object.values(
  defineOperations('api', {
    getThing: { ...shape, method: 'get', path: '/things/:id' },
    deleteThing: { ...shape, method: 'delete', path: '/things/:id' },
  }),
);
const handler = async () => null;

describe('bindHandlers', () => {
  it('attaches each handler to its operation, in the contract order', () => {
    const bound = bindHandlers(ops, [{ deleteThing: handler }, { getThing: handler }]);
    expect(bound.map((r) => [r.operationId, r.handler])).toEqual([
      ['getThing', handler],
      ['deleteThing', handler],
    ]);
  });

  it('refuses an operation without a handler', () => {
    expect(() => bindHandlers(ops, [{ getThing: handler }])).toThrow('deleteThing: no handler');
  });

  it('refuses two handlers for one operation', () => {
    expect(() =>
      bindHandlers(ops, [{ getThing: handler, deleteThing: handler }, { getThing: handler }]),
    ).toThrow('getThing: two handlers');
  });

  it('refuses a handler for no operation', () => {
    expect(() =>
      bindHandlers(ops, [{ getThing: handler, deleteThing: handler, patchThing: handler }]),
    ).toThrow('patchThing: a handler for no operation');
  });
});
