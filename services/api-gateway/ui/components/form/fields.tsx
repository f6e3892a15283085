import { useField } from './context';
import { fieldSchema } from './schema';

interface Common {
  /** The API's dotted field name: errors the API names come back to it. */
  name: string;
  label: string;
  /** A short help text under the field. */
  hint?: string;
}

/** The error and hint under a field. */
function Notes({ id, error, hint }: { id: string; error: string; hint?: string }) {
  return (
    <>
      {hint && (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </>
  );
}

/** The schema's bounds as input attributes (the form checks them itself; these help the keyboard). */
function bounds(schema: Record<string, unknown> | undefined) {
  if (!schema) return {};
  return {
    min: typeof schema.minimum === 'number' ? schema.minimum : undefined,
    max: typeof schema.maximum === 'number' ? schema.maximum : undefined,
    maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined,
  };
}

/**
 * A labelled text input (or textarea) of a form; `json` checks the text is JSON before sending.
 * Required when the body's schema requires it (or `required`).
 */
export function TextField(
  props: Common & {
    type?: 'text' | 'number' | 'url' | 'email' | 'password';
    multiline?: boolean;
    json?: boolean;
    required?: boolean;
    placeholder?: string;
    autocomplete?: string;
  },
) {
  const f = useField(props.name);
  const declared = f.form.schema && fieldSchema(f.form.schema, props.name);
  // a nested member is required only once its group is sent: the form checks that on submit
  const required = props.required || (!props.name.includes('.') && !!declared?.required);
  const common = {
    id: f.id,
    name: props.name,
    value: typeof f.value === 'string' ? f.value : '',
    required,
    placeholder: props.placeholder,
    'aria-invalid': f.error ? ('true' as const) : undefined,
    'aria-describedby': f.describedBy(props.hint),
  };
  return (
    <div class={`field${f.error ? ' invalid' : ''}`}>
      <label for={f.id}>
        {props.label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {props.multiline || props.json ? (
        <textarea
          {...common}
          data-json={props.json ? '' : undefined}
          spellcheck={false}
          onInput={(e) => f.set(e.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          {...bounds(declared?.schema)}
          // (a literal type: preact's input types are told apart by it)
          type={(props.type ?? 'text') as 'text'}
          autocomplete={props.autocomplete ?? 'off'}
          onInput={(e) => f.set(e.currentTarget.value)}
        />
      )}
      <Notes id={f.id} error={f.error} hint={props.hint} />
    </div>
  );
}

/** A labelled select of a form: value/label pairs, with an empty choice when `none` is given. */
export function SelectField(
  props: Common & { options: readonly (string | { value: string; label: string })[]; none?: string },
) {
  const f = useField(props.name);
  const value = typeof f.value === 'string' ? f.value : '';
  return (
    <div class={`field${f.error ? ' invalid' : ''}`}>
      <label for={f.id}>{props.label}</label>
      <select
        id={f.id}
        name={props.name}
        aria-invalid={f.error ? 'true' : undefined}
        aria-describedby={f.describedBy(props.hint)}
        onChange={(e) => f.set(e.currentTarget.value)}
      >
        {props.none !== undefined && <option value="">{props.none}</option>}
        {props.options.map((o) => {
          const opt = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={opt.value} value={opt.value} selected={opt.value === value}>
              {opt.label}
            </option>
          );
        })}
      </select>
      <Notes id={f.id} error={f.error} hint={props.hint} />
    </div>
  );
}

/** A labelled checkbox of a form. */
export function CheckField(props: Common) {
  const f = useField(props.name);
  return (
    <div class={`field check${f.error ? ' invalid' : ''}`}>
      <input
        type="checkbox"
        id={f.id}
        name={props.name}
        checked={f.value === true}
        aria-invalid={f.error ? 'true' : undefined}
        aria-describedby={f.describedBy(props.hint)}
        onChange={(e) => f.set(e.currentTarget.checked)}
      />
      <label for={f.id}>{props.label}</label>
      <Notes id={f.id} error={f.error} hint={props.hint} />
    </div>
  );
}
