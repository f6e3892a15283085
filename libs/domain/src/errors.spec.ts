import { DomainError, NotFoundError, UnavailableError, ValidationError, isRetriable } from './errors';

describe('isRetriable', () => {
  it('never retries programming errors', () => {
    expect(isRetriable(new TypeError('x is undefined'))).toBe(false);
    expect(isRetriable(new RangeError('bad'))).toBe(false);
  });
  it('lets domain errors decide', () => {
    expect(isRetriable(new UnavailableError('kafka down'))).toBe(true);
    expect(isRetriable(new ValidationError('bad body'))).toBe(false);
    expect(isRetriable(new NotFoundError('endpoint'))).toBe(false);
    expect(isRetriable(new DomainError('conflict', 'dup', { retriable: true }))).toBe(true);
  });
  it('treats unknown errors (network resets) as transient', () => {
    expect(isRetriable(new Error('ECONNRESET'))).toBe(true);
  });
});
