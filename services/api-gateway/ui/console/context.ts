import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Call, Session } from './session';
import type { Where } from './location';

/** What every console view uses: the session's API client, the URL, and the page's feedback. */
export interface ConsoleContext {
  session: Session;
  call: Call;
  where: Where;
  /** Bumped by refresh(): views reload their data when it changes. */
  tick: number;
  refresh(): void;
  notify(message: string): void;
}

export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const ctx = useContext(Console);
  if (!ctx) throw new Error('useConsole outside the console');
  return ctx;
}

/** `/api/v1/projects/<id>`: the management API's project path. */
export const apiProject = (pid: string) => `/api/v1/projects/${encodeURIComponent(pid)}`;
/** `/console/projects/<id>`: the console's pages of a project. */
export const pageProject = (pid: string) => `/console/projects/${encodeURIComponent(pid)}`;
