import type { TSchema } from '@sinclair/typebox';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Permission } from '@hookrail/api-contract';
import { useAllowed } from '../grants';
import { ApiError, HandledError, messageOf } from '../http';
import { FormContext, fieldId, type Errors, type Values } from './context';
import { checkValue, fieldSchema } from './schema';

interface Props {
  id: string;
  /** The form's accessible name. */
  label: string;
  /**
   * The operation it sends: text fields are checked against its body's schema before sending, as
   * the API would; a caller without its permission sees the fields read-only and no button.
   */
  operation?: { body?: TSchema; permission: Permission };
  /** The request body's schema, for a form without an operation. */
  schema?: TSchema;
  initial: Values;
  submitLabel: string;
  /** Sends the form (throws the API's error); the form shows its field errors beside the fields. */
  onSubmit: (values: Values) => Promise<unknown>;
  /** The fields, given the current values (a choice shows the fields it needs). */
  children: (values: Values) => ComponentChildren;
}

type Input = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const filled = (el: Input) =>
  el instanceof HTMLInputElement && el.type === 'checkbox' ? el.checked : el.value.trim() !== '';

/**
 * Whether the object holding a nested field is being sent: another shown field of it has a value
 * (an optional group left entirely empty is left out, so its members are not required).
 */
function groupFilled(el: Input, shown: Input[]): boolean {
  const parent = el.name.slice(0, el.name.lastIndexOf('.') + 1);
  return shown.some((o) => o !== el && o.name.startsWith(parent) && filled(o));
}

/** What a field's raw value says wrong before sending ('' when nothing). */
function checkElement(
  el: HTMLInputElement | HTMLTextAreaElement,
  shown: Input[],
  schema: TSchema | undefined,
): string {
  const raw = el.value.trim();
  if (el.dataset.json !== undefined && raw !== '') {
    try {
      JSON.parse(raw);
    } catch (err) {
      return `is not valid JSON (${messageOf(err)})`;
    }
    return '';
  }
  const declared = schema && fieldSchema(schema, el.name);
  const required =
    el.required || (!!declared?.required && (!el.name.includes('.') || groupFilled(el, shown)));
  if (declared) return checkValue(declared.schema, required, raw);
  return required && raw === '' ? 'is required' : '';
}

/** The named field an API error belongs to: itself, else its nearest shown parent (`pub_sub.kafka` for `pub_sub.kafka.brokers.0`). */
function shownField(form: HTMLFormElement, field: string): string | undefined {
  for (let parts = field.split('.'); parts.length > 0; parts = parts.slice(0, -1)) {
    const name = parts.join('.');
    if (form.querySelector(`[name="${CSS.escape(name)}"]`)) return name;
  }
  return undefined;
}

/**
 * A create or edit form of the API: its values, checked against the body's schema before sending,
 * and the API's field-named errors (a 400) shown beside the fields they name; an error naming no
 * shown field appears above the buttons. The first field in error takes the focus.
 */
export function Form({ id, label, operation, initial, submitLabel, onSubmit, children, ...props }: Props) {
  const schema = operation?.body ?? props.schema;
  const allows = useAllowed();
  const allowed = !operation || allows(operation);
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState('');
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // What takes the focus once the errors are rendered: a new object each time, so the same field
  // is focused again after a second failed submit.
  const [focusing, setFocusing] = useState<{ elementId: string } | null>(null);
  // In the commit that shows the errors, before the page is painted: typing that follows at once
  // goes into the field, not to the button it was pressed on.
  useLayoutEffect(() => {
    if (focusing) document.getElementById(focusing.elementId)?.focus();
  }, [focusing]);

  const show = (found: Errors, other: string) => {
    setErrors(found);
    setGeneral(other);
    const first = Object.keys(found)[0];
    setFocusing({ elementId: first ? fieldId(id, first) : `${id}-error` });
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const el = form.current!;
    const found: Errors = {};
    const shown = Array.from(el.querySelectorAll<Input>('input[name], textarea[name], select[name]')).filter(
      (i) => !i.disabled,
    );
    for (const input of shown) {
      if (
        input instanceof HTMLSelectElement ||
        (input instanceof HTMLInputElement && input.type === 'checkbox')
      )
        continue;
      const problem = checkElement(input, shown, schema);
      if (problem) found[input.name] = problem;
    }
    if (Object.keys(found).length > 0) return show(found, '');
    setBusy(true);
    try {
      await onSubmit(values);
      setErrors({});
      setGeneral('');
    } catch (err) {
      if (err instanceof HandledError) return;
      const fromApi: Errors = {};
      const rest: string[] = [];
      for (const p of err instanceof ApiError ? err.fields : []) {
        const name = p.field ? shownField(el, p.field) : undefined;
        if (name && !fromApi[name]) fromApi[name] = name === p.field ? p.message : `${p.field} ${p.message}`;
        else rest.push(p.field ? `${p.field} ${p.message}` : p.message);
      }
      const named = Object.keys(fromApi).length > 0;
      show(fromApi, rest.length > 0 ? rest.join('; ') : named ? '' : messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const set = (name: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  return (
    <FormContext.Provider value={{ id, values, errors, schema, set }}>
      <form id={id} ref={form} class="resource-form" aria-label={label} noValidate onSubmit={submit}>
        <fieldset disabled={!allowed} class="form-fields">
          {children(values)}
        </fieldset>
        {general && (
          <div id={`${id}-error`} class="alert" role="alert" tabIndex={-1}>
            {general}
          </div>
        )}
        <div class="toolbar">
          {allowed ? (
            <button type="submit" class="primary" disabled={busy}>
              {submitLabel}
            </button>
          ) : (
            <p class="muted">Read only: this role lacks the permission {operation.permission}.</p>
          )}
        </div>
      </form>
    </FormContext.Provider>
  );
}
