import type { Permission } from '@hookrail/api-contract';
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * What the signed-in caller may do, as its session says (the console's `permissions` and
 * `view_payloads`): the page hides what the API would refuse. The API still decides; a page
 * without a provider (the portal, whose link decides server-side) shows everything.
 */
interface Grants {
  permissions: readonly Permission[] | 'all';
  /**
   * What the caller holds on the whole instance, for the operations the API checks there (`auth:
   * 'admin'`, e.g. deleting a project): a person's role in one project does not reach them.
   */
  instancePermissions?: readonly Permission[] | 'all';
  payloads: boolean;
}

export const GrantsContext = createContext<Grants>({ permissions: 'all', payloads: true });

/** An operation of the contract, or anything declaring the permission it needs (and where). */
type Needs = { permission: Permission; auth?: string };

export function useAllowed(): (op: Needs) => boolean {
  const grants = useContext(GrantsContext);
  return (op) => {
    const held =
      op.auth === 'admin' ? (grants.instancePermissions ?? grants.permissions) : grants.permissions;
    return held === 'all' || held.includes(op.permission);
  };
}

export const useSeesPayloads = () => useContext(GrantsContext).payloads;

/** Its children only when the caller holds the operation's permission. */
export function Allowed(props: { op: Needs; children: ComponentChildren }) {
  return useAllowed()(props.op) ? <>{props.children}</> : null;
}

/** In place of a payload the caller's role does not show. */
export function PayloadHidden() {
  return (
    <p class="muted payload-hidden">Payload hidden: this role does not show payloads (view_payloads).</p>
  );
}
