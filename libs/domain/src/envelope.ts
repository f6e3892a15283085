import type { FieldError } from './errors';

/** Every JSON response: `{status, message, data}`. */
export interface Envelope<T> {
  status: boolean;
  message: string;
  data: T;
}

export function ok<T>(message: string, data: T): Envelope<T> {
  return { status: true, message, data };
}

export function fail(message: string, errors?: FieldError[]): Envelope<{ errors?: FieldError[] } | null> {
  return { status: false, message, data: errors && errors.length > 0 ? { errors } : null };
}
