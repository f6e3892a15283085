import { createHash, randomFillSync } from 'node:crypto';
import { decodeTime, encodeTime, monotonicFactory } from 'ulid';

/**
 * ulid asks its random source once per character; a crypto call per character was a visible share
 * of a busy dispatcher's CPU. Random bytes are drawn 4 KiB at a time instead (still crypto-grade).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function pooledRandom(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] / 256;
}

const next = monotonicFactory(pooledRandom);

/** Sortable, unique ids (ULID) for every resource. */
export function newId(): string {
  return next();
}

/** ULID's alphabet (Crockford base32), 26 characters. */
export const ID_PATTERN = '^[0-9A-HJKMNP-TV-Z]{26}$';

export function isId(value: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID that is a pure function of `seed` and `time`: the same input always gives the same id, so
 * a consumer can derive the id of what a redelivered message creates (idempotent insert) while ids
 * still sort by time. The 80 random bits are the first bits of SHA-256(seed).
 */
export function idFrom(seed: string, time: Date | number): string {
  const digest = createHash('sha256').update(seed).digest();
  let suffix = '';
  for (let i = 0; i < 16; i++) {
    const bit = i * 5;
    const word = (digest[bit >> 3] << 8) | digest[(bit >> 3) + 1];
    suffix += CROCKFORD[(word >> (11 - (bit & 7))) & 31];
  }
  return encodeTime(typeof time === 'number' ? time : time.getTime(), 10) + suffix;
}

/** ULID time is 48 bits of milliseconds since the epoch. */
export const MAX_ID_TIME = 2 ** 48 - 1;

/**
 * The first (or last) id any resource made at `time` can have: ids sort by time, so a time range
 * is an id range.
 */
export function idBoundAt(time: number, end: 'first' | 'last'): string {
  return encodeTime(time, 10) + (end === 'first' ? '0' : 'Z').repeat(16);
}

/** When an id was made (its first 10 characters), or null if it is not an id. */
export function timeOfId(id: string): number | null {
  try {
    return decodeTime(id.slice(0, 10).padEnd(26, '0'));
  } catch {
    return null;
  }
}

/**
 * A project's id, branded: every store repository takes one, so a query without its project does
 * not compile. Ids become `ProjectId` where they enter from outside (an authorised request, an
 * admin operation, a test); documents and our own Kafka messages carry them branded already.
 */
export type ProjectId = string & { readonly __brand: 'ProjectId' };

/** Brands `value` as a project id; throws unless it is an id (a ULID). */
export function asProjectId(value: string): ProjectId {
  if (!isId(value)) throw new Error(`not a project id: ${JSON.stringify(value)}`);
  return value as ProjectId;
}

/** A fresh project id (new projects, tests). */
export function newProjectId(): ProjectId {
  return newId() as ProjectId;
}
