import { endpointAddress, type AddressedEndpoint } from '@hookrail/api-contract';

/** The endpoint's destination as a monospace line (its credentials are never sent back). */
export function Destination({ e }: { e: AddressedEndpoint }) {
  return <span class="mono">{endpointAddress(e)}</span>;
}
