import { DomainError } from '@hookrail/domain';

/** MongoDB's error code for a unique index violation (E11000). */
const DUPLICATE_KEY_CODE = 11000;

/**
 * A write hit a unique index (`_id` or a unique secondary index). Not retriable: the same write
 * would fail again. `index` names the violated index when the server reported it.
 */
export class DuplicateKeyError extends DomainError {
  readonly index: string | null;

  constructor(message: string, opts: { index?: string | null; cause?: unknown } = {}) {
    super('conflict', message, { cause: opts.cause, retriable: false });
    this.name = 'DuplicateKeyError';
    this.index = opts.index ?? null;
  }
}

interface DriverError {
  code?: number;
  errmsg?: string;
  message?: string;
  err?: { code?: number };
  writeErrors?: DriverError[] | DriverError;
}

function writeErrorsOf(err: DriverError): DriverError[] {
  const list = err.writeErrors;
  return Array.isArray(list) ? list : list ? [list] : [];
}

function codeOf(err: DriverError): number | undefined {
  return err.code ?? err.err?.code;
}

/**
 * True when `err` is a duplicate key error, or a bulk write error whose every failed operation is
 * one (an unordered insert of documents of which some already exist).
 */
export function isDuplicateKey(err: unknown): boolean {
  if (err instanceof DuplicateKeyError) return true;
  if (!err || typeof err !== 'object') return false;
  const e = err as DriverError;
  const writeErrors = writeErrorsOf(e);
  if (writeErrors.length > 0) return writeErrors.every((w) => codeOf(w) === DUPLICATE_KEY_CODE);
  return codeOf(e) === DUPLICATE_KEY_CODE;
}

/** The typed error for a duplicate key error from the driver; any other error is returned as it is. */
function typedStoreError(err: unknown): unknown {
  if (err instanceof DuplicateKeyError || !isDuplicateKey(err)) return err;
  const e = err as DriverError;
  const text = e.errmsg ?? e.message ?? 'duplicate key';
  const index = / index: (\S+)/.exec(text)?.[1] ?? null;
  return new DuplicateKeyError(`duplicate key${index ? ` (index ${index})` : ''}`, { index, cause: err });
}

/** `.catch(rethrowTyped)`: surfaces duplicate key errors as DuplicateKeyError. */
export function rethrowTyped(err: unknown): never {
  throw typedStoreError(err);
}

/** Positions (in the batch sent) of the operations a bulk write or unordered insert refused. */
export function failedIndexes(err: unknown): number[] {
  const list = (err as { writeErrors?: { index?: number }[] | { index?: number } } | null)?.writeErrors;
  return (Array.isArray(list) ? list : list ? [list] : []).flatMap((w) =>
    typeof w.index === 'number' ? [w.index] : [],
  );
}
