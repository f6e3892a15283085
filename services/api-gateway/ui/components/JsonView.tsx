import { prettyJson } from './format';

/** A JSON value, pretty-printed (or a text shown as it is). */
export function JsonView({ id, value, text }: { id?: string; value?: unknown; text?: string }) {
  return <pre id={id}>{text ?? prettyJson(value)}</pre>;
}
