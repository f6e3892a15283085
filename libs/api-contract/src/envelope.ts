/** Every answer of the gateway: `{status, message, data}` (libs/domain `ok` and `fail`). */
export interface Envelope {
  status?: boolean;
  message?: string;
  data?: unknown;
}

/** One refused field of a request, as the API names it (`url`, `pub_sub.sqs.queue_name`). */
export interface FieldProblem {
  field?: string;
  message: string;
}

/** A refused call as its envelope says it. */
export interface Refusal {
  /** The envelope's message (else the fallback given). */
  message: string;
  /** The errors that name a field (a 400's), for a form to show beside its fields. */
  fields: FieldProblem[];
  /** What `data.errors` adds to the message, `; `-separated; empty when it adds nothing. */
  detail: string;
}

const problemsOf = (data: unknown): FieldProblem[] => {
  const errors = (data as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors)
    ? (errors as FieldProblem[]).filter((e) => typeof e?.message === 'string')
    : [];
};

/**
 * Reads a refusal's envelope, for the console, the portal and the CLI alike. The gateway repeats a
 * refusal's message in `data.errors` as a field-less error, and a 400 names its first bad field in
 * the message itself, so `detail` keeps only what the message does not already say.
 */
export function readRefusal(envelope: Envelope | null | undefined, fallback: string): Refusal {
  const message = envelope?.message || fallback;
  const problems = problemsOf(envelope?.data);
  const detail = problems
    .map((p) => (p.field ? `${p.field}: ${p.message}` : p.message))
    .filter((text) => !message.includes(text) && !message.includes(text.replace(': ', ' ')))
    .join('; ');
  return { message, fields: problems.filter((p) => p.field), detail };
}

/** The refusal in one line: its message, then in brackets what the field errors add. */
export const refusalText = (r: Refusal): string => (r.detail ? `${r.message} (${r.detail})` : r.message);
