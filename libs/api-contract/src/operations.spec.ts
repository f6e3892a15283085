import { SURFACE_PREFIX } from './operation';
import { ALL_OPERATIONS } from './operations';

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
