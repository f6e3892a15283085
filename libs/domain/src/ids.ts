import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

/** Sortable, unique ids (ULID) for every resource. */
export function newId(): string {
  return next();
}

/** ULID's alphabet (Crockford base32), 26 characters. */
export const ID_PATTERN = '^[0-9A-HJKMNP-TV-Z]{26}$';

export function isId(value: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}
