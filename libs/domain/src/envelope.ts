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

/**
 * Every failure carries `data.errors`, so clients read one shape: the field errors when the
 * problem is in named fields, else one entry with the message and an empty `field`.
 */
export function fail(message: string, errors?: FieldError[]): Envelope<{ errors: FieldError[] }> {
  return {
    status: false,
    message,
    data: { errors: errors && errors.length > 0 ? errors : [{ field: '', message }] },
  };
}
