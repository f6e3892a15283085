/**
 * Domain errors know whether retrying can help. The gateway maps `code` to an HTTP status in one
 * place (services/api-gateway/src/http/error-mapper.ts); Kafka handlers use `retriable` to decide
 * between "leave uncommitted for redelivery" and "record the failure and move on".
 */
export type ErrorCode =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly retriable: boolean;
  readonly details?: { errors?: FieldError[] };

  constructor(
    code: ErrorCode,
    message: string,
    opts: { retriable?: boolean; cause?: unknown; details?: { errors?: FieldError[] } } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'DomainError';
    this.code = code;
    this.retriable = opts.retriable ?? (code === 'unavailable' || code === 'internal');
    this.details = opts.details;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, errors: FieldError[] = []) {
    super('validation', message, { details: { errors } });
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string) {
    super('not_found', `${resource} not found`);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
    this.name = 'ConflictError';
  }
}

/** A dependency (Kafka, MongoDB, a broker) is unreachable: the work can succeed later. */
export class UnavailableError extends DomainError {
  constructor(message: string, cause?: unknown) {
    super('unavailable', message, { cause, retriable: true });
    this.name = 'UnavailableError';
  }
}

const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError];

/** Programming errors are never retried; DomainErrors say for themselves; anything else is assumed transient. */
export function isRetriable(err: unknown): boolean {
  if (err instanceof DomainError) return err.retriable;
  if (PROGRAMMING_ERRORS.some((t) => err instanceof t)) return false;
  if (err && typeof err === 'object' && 'retriable' in err)
    return Boolean((err as { retriable: unknown }).retriable);
  return true;
}

/** Driver errors that mean "the database or broker is unreachable", not "this input is bad". */
const OUTAGE_ERROR_NAMES =
  /^(Mongo(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed)Error|PoolClearedError|PoolClosedError|KafkaJS(Connection|RequestTimeout|BrokerNotFound)Error)$/;

/**
 * True when `err` (or an error it wraps) says a dependency is down: every other message would
 * fail the same way, so a consumer keeps retrying rather than giving up on this one.
 */
export function isDependencyOutage(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (e instanceof UnavailableError) return true;
    if (e instanceof Error && OUTAGE_ERROR_NAMES.test(e.name)) return true;
    // The MongoDB driver wraps the network error that cut a bulk write off in `errorResponse`.
    const wrapper = e as { cause?: unknown; errorResponse?: unknown };
    e = wrapper.cause ?? (wrapper.errorResponse instanceof Error ? wrapper.errorResponse : undefined);
  }
  return false;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
