import type { ComponentChildren, HTMLAttributes } from 'preact';

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  /** Shown to screen readers only (an actions column has no visible heading). */
  hiddenLabel?: boolean;
}

interface Props<T> {
  id?: string;
  class?: string;
  columns: Column<T>[];
  rows: T[];
  /** Each row's attributes: its id (`data-id`...), a class, a click handler. */
  /** Keeps a row's own state (a checkbox, a revealed value) with its item across reloads. */
  rowKey?: (row: T) => string;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string };
  /** One full-width row when there is nothing to list. */
  empty?: string;
}

/** A plain data table: a header row of labelled columns and one row per item. */
export function DataTable<T>({ id, class: className, columns, rows, rowKey, rowProps, empty }: Props<T>) {
  return (
    <table id={id} class={className}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.label}>
              {c.hiddenLabel ? <span class="visually-hidden">{c.label}</span> : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty ? (
          <tr>
            <td colSpan={columns.length} class="muted">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((row, i) => (
            <tr key={rowKey ? rowKey(row) : i} {...rowProps?.(row)}>
              {columns.map((c) => (
                <td key={c.label}>{c.cell(row)}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
