import { createHash } from 'node:crypto';
import { idempotencyKey, idempotencyLocationProblem } from './idempotency';

const req = (over: Partial<{ headers: Record<string, string>; query: string; data: unknown }> = {}) => ({
  headers: over.headers ?? { 'x-id': 'h1' },
  query: new URLSearchParams(over.query ?? 'id=q1'),
  data: over.data ?? { data: { id: 'b1', n: 7 } },
});

describe('idempotencyKey', () => {
  it('is stable for the same source and values', () => {
    const locs = ['request.header.X-Id', 'request.body.data.id', 'request.query.id'];
    expect(idempotencyKey('src1', locs, req())).toBe(idempotencyKey('src1', locs, req()));
    expect(idempotencyKey('src1', locs, req())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the digest claims are stored under: the source and each value, NUL between them', () => {
    // Built value by value, as keys were before: a deploy must not change the stored claims' keys.
    const expected = createHash('sha256')
      .update('src1')
      .update('\0')
      .update('header.x-id=h1')
      .update('\0')
      .update('query.id=q1')
      .digest('hex');
    expect(idempotencyKey('src1', ['request.header.X-Id', 'request.query.id'], req())).toBe(expected);
  });

  it('differs by source and by value', () => {
    const locs = ['request.body.data.id'];
    const base = idempotencyKey('src1', locs, req());
    expect(idempotencyKey('src2', locs, req())).not.toBe(base);
    expect(idempotencyKey('src1', locs, req({ data: { data: { id: 'b2' } } }))).not.toBe(base);
  });

  it('reads headers case-insensitively, nested body paths and non-string values', () => {
    expect(idempotencyKey('s', ['request.header.x-ID'], req())).toBe(
      idempotencyKey('s', ['request.header.X-Id'], req()),
    );
    expect(idempotencyKey('s', ['request.body.data.n'], req())).toBeDefined();
  });

  it('has no key when no location is present', () => {
    expect(idempotencyKey('s', ['request.body.missing.path', 'request.query.none'], req())).toBeUndefined();
    expect(idempotencyKey('s', [], req())).toBeUndefined();
    expect(idempotencyKey('s', ['request.body.data.id.deeper'], req())).toBeUndefined();
  });

  it('validates locations', () => {
    expect(idempotencyLocationProblem('request.header.X-Id')).toBeUndefined();
    expect(idempotencyLocationProblem('header.X-Id')).toMatch(/must look like/);
  });
});
