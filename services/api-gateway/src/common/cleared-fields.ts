import { ValidationError } from '@hookrail/domain';

/**
 * The stored fields an update's `clear` empties (each to null). `null` and `""` cannot do it:
 * Convoy's clients send them for every field they leave unset, so they mean "keep"
 * (http/unset-fields.ts). A field both set and cleared in one body is a 400 naming `clear`.
 */
export function clearedFields<F extends string>(
  body: { clear?: readonly F[] } & Partial<Record<F, unknown>>,
): Partial<Record<F, null>> {
  const clear = body.clear ?? [];
  const both = clear.filter((f) => body[f] !== undefined);
  if (both.length > 0)
    throw new ValidationError(`clear names ${both.join(', ')}, which this update also sets`, [
      { field: 'clear', message: `names ${both.join(', ')}, which this update also sets` },
    ]);
  return Object.fromEntries(clear.map((f) => [f, null])) as Partial<Record<F, null>>;
}
