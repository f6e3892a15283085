import {
  DomainError,
  NotFoundError,
  UnavailableError,
  ValidationError,
  isDependencyOutage,
  isRetriable,
} from './errors';

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

describe('isDependencyOutage', () => {
  const named = (name: string) => Object.assign(new Error('down'), { name });

  it('is true for UnavailableError and driver errors meaning the database or broker is unreachable', () => {
    expect(isDependencyOutage(new UnavailableError('kafka did not acknowledge'))).toBe(true);
    expect(isDependencyOutage(named('MongoServerSelectionError'))).toBe(true);
    expect(isDependencyOutage(named('MongoNetworkError'))).toBe(true);
    expect(isDependencyOutage(named('KafkaJSConnectionError'))).toBe(true);
    // wrapped
    expect(isDependencyOutage(new Error('write failed', { cause: named('MongoNetworkTimeoutError') }))).toBe(
      true,
    );
    // a bulk write cut off by the connection (the driver's MongoBulkWriteError)
    const bulk = Object.assign(named('MongoBulkWriteError'), { errorResponse: named('MongoNetworkError') });
    expect(isDependencyOutage(bulk)).toBe(true);
  });

  it('is false for errors about the message itself', () => {
    expect(isDependencyOutage(new Error('still failing'))).toBe(false);
    expect(isDependencyOutage(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyOutage(named('MongoServerError'))).toBe(false);
    expect(isDependencyOutage('text')).toBe(false);
  });
});
