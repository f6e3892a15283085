import type { ComponentChildren } from 'preact';

export interface Filter {
  key: string;
  label: string;
  /** A select of these values (or value/label pairs) after an "any" choice; else a text input. */
  options?: (string | { value: string; label: string })[];
  anyLabel?: string;
  placeholder?: string;
  /** `time`: picked in local time, applied as an ISO timestamp; `search`: free text. */
  type?: 'time' | 'search';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a datetime-local input's value (the browser's local time); '' if not a time. */
function toLocalInput(iso: string | undefined): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value (local time) as an ISO timestamp; '' for none. */
function fromLocalInput(local: string): string {
  const d = local ? new Date(local) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
}

interface Props {
  id?: string;
  label?: string;
  filters: Filter[];
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
  submitLabel?: string;
  /** After the submit button: a reset link, for instance. */
  children?: ComponentChildren;
}

/**
 * A search form of labelled filters; applying hands over every value, trimmed. The fields start
 * from `values` (the applied filter) and are the user's until applied: a re-render of the page
 * (a toast, a reload) leaves what is typed alone; new applied values start a fresh form.
 */
export function FiltersBar({
  id,
  label = 'Filters',
  filters,
  values,
  onApply,
  submitLabel = 'Apply',
  children,
}: Props) {
  return (
    <form
      key={JSON.stringify(values)}
      id={id}
      class="filters"
      role="search"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        const out: Record<string, string> = {};
        new FormData(e.currentTarget).forEach((v, k) => (out[k] = String(v).trim()));
        for (const f of filters) if (f.type === 'time') out[f.key] = fromLocalInput(out[f.key] ?? '');
        onApply(out);
      }}
    >
      {filters.map((f) => (
        <label key={f.key}>
          {f.label}
          {f.options ? (
            <select name={f.key}>
              <option value="">{f.anyLabel ?? 'any'}</option>
              {f.options.map((o) => {
                const { value, label: text } = typeof o === 'string' ? { value: o, label: o } : o;
                return (
                  <option key={value} value={value} selected={values[f.key] === value}>
                    {text}
                  </option>
                );
              })}
            </select>
          ) : f.type === 'time' ? (
            <input name={f.key} type="datetime-local" defaultValue={toLocalInput(values[f.key])} />
          ) : (
            <input
              name={f.key}
              // (a literal type: preact's input types are told apart by it)
              type={(f.type === 'search' ? 'search' : 'text') as 'text'}
              defaultValue={values[f.key] ?? ''}
              placeholder={f.placeholder ?? ''}
            />
          )}
        </label>
      ))}
      <button type="submit" class="primary">
        {submitLabel}
      </button>
      {children}
    </form>
  );
}
