import { ValidationError } from '@hookrail/domain';

/** Dot-separated parts of letters, digits, `_` and `-`: the concrete types subscriptions select. */
const NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/**
 * A catalog entry names one concrete event type. Patterns (`invoice.*`, `*`) belong in a
 * subscription's `filter_config.event_types`, where they select the types named here.
 */
export function checkEventTypeName(name: string, field: string): void {
  if (NAME.test(name) && name.length <= 200) return;
  const message = name.includes('*')
    ? `${JSON.stringify(name)} is a pattern: a catalog entry names one concrete type (invoice.paid); patterns such as invoice.* go in a subscription's filter_config.event_types`
    : `${JSON.stringify(name)} is not an event type name: use letters, digits, "_" and "-" in dot-separated parts (invoice.paid), at most 200 characters`;
  throw new ValidationError(`${field}: ${message}`, [{ field, message }]);
}
