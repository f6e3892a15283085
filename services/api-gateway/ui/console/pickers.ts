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

const named = (items: { uid: string; name: string }[]): Choice[] =>
  items.map((i) => ({ value: i.uid, label: i.name || i.uid }));

/** The project's endpoints as choices by name (none while loading or after a failure). */
export function useEndpointChoices(pid: string): Choice[] {
  const ctx = useConsole();
  const load = useLoad(
    () => ctx.call(api.listEndpoints, { params: { projectID: pid }, query: { perPage: PICKER_SIZE } }),
    [pid],
  );
  return load.state === 'done' ? named(load.data.content) : [];
}

/** The project's sources as choices by name. */
export function useSourceChoices(pid: string): Choice[] {
  const ctx = useConsole();
  const load = useLoad(
    () => ctx.call(api.listSources, { params: { projectID: pid }, query: { perPage: PICKER_SIZE } }),
    [pid],
  );
  return load.state === 'done' ? named(load.data.content) : [];
}
