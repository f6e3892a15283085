import { REDACTED, fieldChanges, redactSecrets } from './field-diff';

describe('fieldChanges', () => {
  const ignore = new Set(['updated_at']);

  it('names each changed field by its path, with its value before and after', () => {
    const before = {
      name: 'a',
      url: 'https://a',
      config: { retry: { count: 3, type: 'linear' } },
      updated_at: 1,
    };
    const after = {
      name: 'a',
      url: 'https://b',
      config: { retry: { count: 5, type: 'linear' } },
      updated_at: 2,
    };
    expect(fieldChanges(before, after, ignore)).toEqual({
      url: { before: 'https://a', after: 'https://b' },
      'config.retry.count': { before: 3, after: 5 },
    });
  });

  it('shows a changed credential as changed, never its values', () => {
    const changes = fieldChanges(
      { secret: 'old', auth: { password: 'p1' }, secrets: [{ value: 'x' }] },
      { secret: 'new', auth: { password: 'p2' }, secrets: [{ value: 'y' }] },
      ignore,
    );
    expect(changes).toEqual({
      secret: { before: REDACTED, after: REDACTED },
      'auth.password': { before: REDACTED, after: REDACTED },
      secrets: { before: REDACTED, after: REDACTED },
    });
  });

  it('records a field added or removed with null on the side it is missing', () => {
    expect(fieldChanges({ a: 1 }, { b: 2 }, ignore)).toEqual({
      a: { before: 1, after: null },
      b: { before: null, after: 2 },
    });
  });

  it('redacts credentials at any depth and keeps the rest', () => {
    expect(redactSecrets({ name: 'n', verifier: { hmac: { secret: 's' } }, api_key: 'k' })).toEqual({
      name: 'n',
      verifier: { hmac: { secret: REDACTED } },
      api_key: REDACTED,
    });
  });
});
