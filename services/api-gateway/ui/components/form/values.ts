import type { Values } from './context';

/**
 * A form's values read as a request body's members. A member left empty is left out (the API keeps
 * or defaults it); `clearable` sends '' so an edit can empty a text the API lets be empty.
 */
export function text(v: Values, name: string, clearable = false): string | undefined {
  const s = v[name];
  if (typeof s !== 'string') return undefined;
  const t = s.trim();
  return t !== '' ? t : clearable ? '' : undefined;
}

/** A number field's value (undefined when empty). */
export function num(v: Values, name: string): number | undefined {
  const s = text(v, name);
  return s === undefined ? undefined : Number(s);
}

/** A checkbox's value. */
export const flag = (v: Values, name: string): boolean => v[name] === true;

/** A JSON text field's value, parsed (the form has checked it parses). */
export function json<T = unknown>(v: Values, name: string): T | undefined {
  const s = text(v, name);
  return s === undefined ? undefined : (JSON.parse(s) as T);
}

/** A list typed one per line or separated by commas. */
export function list(v: Values, name: string): string[] | undefined {
  const s = text(v, name);
  return s === undefined
    ? undefined
    : s
        .split(/[\n,]/)
        .map((x) => x.trim())
        .filter(Boolean);
}

/** A value for a form field: numbers as text, null and undefined as ''. */
export const field = (x: string | number | null | undefined): string =>
  x === null || x === undefined ? '' : String(x);

/** A JSON value as a JSON field's text ('' for none). */
export const jsonField = (x: unknown): string =>
  x === null || x === undefined ? '' : JSON.stringify(x, null, 2);
