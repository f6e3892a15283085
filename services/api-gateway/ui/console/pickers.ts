import type { Page } from '@hookrail/api-contract';
import { useLoad } from '../components/useLoad';
import { api } from './api';
import { useConsole } from './context';

/** A choice of a picker: the id sent, the name shown. */
export interface Choice {
  value: string;
  label: string;
}

/** How many a picker lists (the API's largest page); more are reached by the list's search. */
const PICKER_SIZE = 100;

/** The lists of named items a picker chooses from. */
type NamedList = typeof api.listEndpoints | typeof api.listSources | typeof api.listSubscriptions;

/** A project's items of a list as choices by name (none while loading or after a failure). */
function useChoices(pid: string, op: NamedList): Choice[] {
  const ctx = useConsole();
  const load = useLoad(
    () =>
      ctx.call<NamedList>(op, {
        params: { projectID: pid },
        query: { perPage: PICKER_SIZE },
      }) as Promise<Page<{ uid: string; name: string }>>,
    [pid, op],
  );
  return load.state === 'done'
    ? load.data.content.map((i) => ({ value: i.uid, label: i.name || i.uid }))
    : [];
}

export const useEndpointChoices = (pid: string) => useChoices(pid, api.listEndpoints);
export const useSourceChoices = (pid: string) => useChoices(pid, api.listSources);
export const useSubscriptionChoices = (pid: string) => useChoices(pid, api.listSubscriptions);
