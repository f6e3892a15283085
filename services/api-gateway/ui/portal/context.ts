import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { PortalCatalogEntry, PortalEndpoint, PortalLink } from './api';

/** What the portal's sections share: the link, its endpoints, and the page's feedback. */
export interface PortalContext {
  link: PortalLink;
  endpoints: PortalEndpoint[];
  /** The project's event catalog (current types): what an endpoint can subscribe to. */
  catalog: PortalCatalogEntry[];
  /** Runs an action; on success reloads the page's data and shows `done`. False when it failed. */
  act(run: () => Promise<unknown>, done: string): Promise<boolean>;
  notice(message: string): void;
  error(message: string): void;
}

export const Portal = createContext<PortalContext | null>(null);

export function usePortal(): PortalContext {
  const ctx = useContext(Portal);
  if (!ctx) throw new Error('usePortal outside the portal');
  return ctx;
}
