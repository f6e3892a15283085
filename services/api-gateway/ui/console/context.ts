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

/** `/console/projects/<id>`: the console's pages of a project. */
export const pageProject = (pid: string) => `/console/projects/${encodeURIComponent(pid)}`;
