import type { TSchema } from '@sinclair/typebox';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** A form's values by field name: the API's dotted field (`retry_config.retry_count`). */
export type Values = Record<string, string | boolean>;
/** What is wrong with a field, by its name. */
export type Errors = Record<string, string>;

export interface FormState {
  id: string;
  values: Values;
  errors: Errors;
  schema?: TSchema;
  set(name: string, value: string | boolean): void;
}

export const FormContext = createContext<FormState | null>(null);

/** The element id of a form's field. */
export const fieldId = (form: string, name: string) => `${form}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A field's part of its form: its id, value, error and setter. */
export function useField(name: string) {
  const form = useContext(FormContext);
  if (!form) throw new Error(`field ${name} outside a <Form>`);
  const id = fieldId(form.id, name);
  return {
    id,
    form,
    value: form.values[name],
    error: form.errors[name] ?? '',
    set: (v: string | boolean) => form.set(name, v),
    /** The error's and the hint's ids, for aria-describedby. */
    describedBy: (hint?: string) =>
      [form.errors[name] ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') ||
      undefined,
  };
}
