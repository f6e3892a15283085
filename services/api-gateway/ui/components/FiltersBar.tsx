import type { ComponentChildren } from 'preact';

export interface Filter {
  key: string;
  label: string;
  /** A select of these values (or value/label pairs) after an "any" choice; else a text input. */
  options?: (string | { value: string; label: string })[];
  anyLabel?: string;
  placeholder?: string;
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
          ) : (
            <input name={f.key} defaultValue={values[f.key] ?? ''} placeholder={f.placeholder ?? ''} />
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
