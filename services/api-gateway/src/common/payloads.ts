import type { Principal } from '../auth/principal';
import { seesPayloads } from '../auth/roles';

/**
 * Whether the caller is shown payloads: the bodies of events, of the requests sent and of the
 * responses received. A viewer key without `view_payloads` gets them emptied, so a read-only key
 * for a dashboard cannot read customers' data.
 */
export function showsPayloads(actor: Principal): boolean {
  return actor.kind === 'admin' || seesPayloads(actor.role, actor.viewPayloads);
}

/** The answer as the caller may see it: `hide` applied to each item unless payloads are shown. */
export function withPayloadsFor<T>(actor: Principal, items: T[], hide: (item: T) => T): T[] {
  return showsPayloads(actor) ? items : items.map(hide);
}
