import { CliError, EXIT } from '../exit-codes';
import { SECTIONS, type ApplyFile, type Entry, type Section } from './apply-file';

/** An item of the project as apply compares it with the file. */
export interface Existing {
  uid: string;
  name: string;
  /** Its fields in the file's terms (a subscription's endpoint and source by name, an endpoint's secret). */
  view: Record<string, unknown>;
  /** Made by `hookrail listen` (a cli endpoint, or a subscription of one): never pruned. */
  ephemeral?: boolean;
}
export type ProjectState = Record<Section, Existing[]>;

export type Action = 'create' | 'update' | 'unchanged' | 'delete';

/** One step of the plan, in the order it is applied. */
export interface Change {
  section: Section;
  name: string;
  action: Action;
  uid?: string;
  /** update: the fields that differ from the project's. */
  fields: string[];
  /** create: the file's entry; update: its changed fields (a subscription's names still unresolved). */
  body?: Record<string, unknown>;
}

/** What one item of a section is called in messages. */
export const NOUN: Record<Section, string> = {
  event_types: 'event type',
  sources: 'source',
  endpoints: 'endpoint',
  subscriptions: 'subscription',
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether the project's value already is what the file asks: equal scalars and lists, and objects
 * holding at least the file's keys with equal values (the API fills in what the file leaves out).
 * An empty object stands for none (`json_schema: {}` removes a schema).
 */
export function sameValue(want: unknown, have: unknown): boolean {
  if (Array.isArray(want))
    return Array.isArray(have) && want.length === have.length && want.every((w, i) => sameValue(w, have[i]));
  if (isObject(want)) {
    if (have === null || have === undefined) return Object.keys(want).length === 0;
    return isObject(have) && Object.entries(want).every(([k, v]) => sameValue(v, have[k]));
  }
  return want === have || (want === null && have === undefined);
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** A retry duration as the API stores it: seconds (`30`, `"30s"`, `"5m"`, `"1h"`). */
function seconds(duration: unknown): unknown {
  const m = typeof duration === 'string' ? /^(\d+)([smh]?)$/.exec(duration.trim()) : null;
  return m ? Number(m[1]) * UNIT_SECONDS[m[2] || 's'] : duration;
}

/** The entry in the terms the API answers with (a subscription's retry duration in seconds). */
function comparable(section: Section, entry: Entry): Record<string, unknown> {
  if (section !== 'subscriptions' || !isObject(entry.retry_config)) return entry;
  const { interval_seconds, duration, ...retry } = entry.retry_config;
  return { ...entry, retry_config: { ...retry, duration: seconds(duration ?? interval_seconds) } };
}

/** The fields of the entry whose value the project's item does not already have. */
export function changedFields(section: Section, entry: Entry, view: Record<string, unknown>): string[] {
  const want = comparable(section, entry);
  return Object.keys(want).filter((k) => k !== 'name' && !sameValue(want[k], view[k]));
}

const pick = (entry: Entry, fields: string[]) => Object.fromEntries(fields.map((f) => [f, entry[f]]));

/** Each entry of a section: created when the project has no item of its name, else updated or unchanged. */
function planSection(section: Section, entries: Entry[], existing: Existing[], problems: string[]): Change[] {
  return entries.map((entry, i) => {
    const matches = existing.filter((e) => e.name === entry.name);
    if (matches.length > 1)
      problems.push(
        `${section}[${i}].name: the project has ${matches.length} ${NOUN[section]}s named "${entry.name}" (${matches.map((m) => m.uid).join(', ')}); apply matches by name: rename or delete all but one`,
      );
    const current = matches[0];
    if (!current) return { section, name: entry.name, action: 'create', fields: [], body: entry };
    const fields = changedFields(section, entry, current.view);
    return fields.length > 0
      ? { section, name: entry.name, action: 'update', uid: current.uid, fields, body: pick(entry, fields) }
      : { section, name: entry.name, action: 'unchanged', uid: current.uid, fields: [] };
  });
}

/**
 * A subscription's endpoint (and source) must be named in the file or be in the project; with
 * `--prune` and the section in the file, only the file's count (the others are deleted).
 */
function checkReferences(file: ApplyFile, state: ProjectState, prune: boolean, problems: string[]): void {
  const known = (section: 'endpoints' | 'sources') => {
    const names = new Set((file[section] ?? []).map((e) => e.name));
    if (!(prune && file[section])) for (const e of state[section]) names.add(e.name);
    return names;
  };
  const endpoints = known('endpoints');
  const sources = known('sources');
  const where = (section: string) =>
    prune && file[section as Section]
      ? 'in the file (--prune deletes the others)'
      : 'in the file or the project';
  (file.subscriptions ?? []).forEach((s, i) => {
    if (!endpoints.has(s.endpoint as string))
      problems.push(
        `subscriptions[${i}].endpoint: no endpoint named "${String(s.endpoint)}" ${where('endpoints')}`,
      );
    if (typeof s.source === 'string' && !sources.has(s.source))
      problems.push(`subscriptions[${i}].source: no source named "${s.source}" ${where('sources')}`);
  });
}

/** With `--prune`: the project's items of each section the file has that the file does not name. */
function planPrune(file: ApplyFile, state: ProjectState): Change[] {
  return [...SECTIONS].reverse().flatMap((section) => {
    if (!file[section]) return [];
    const named = new Set(file[section].map((e) => e.name));
    return state[section]
      .filter((e) => !named.has(e.name) && !e.ephemeral)
      .map((e): Change => ({ section, name: e.name, action: 'delete', uid: e.uid, fields: [] }));
  });
}

/**
 * What applying the file to the project does, in order: event types, sources, endpoints, then
 * subscriptions (which name them) created or updated; with `prune`, then the deletions,
 * subscriptions first. Pure: the project's state is read beforehand. A file the project cannot
 * take as written (an unknown name, a name two items of the project share) is a usage error.
 */
export function planApply(file: ApplyFile, state: ProjectState, opts: { prune: boolean }): Change[] {
  const problems: string[] = [];
  const changes = SECTIONS.flatMap((section) =>
    planSection(section, file[section] ?? [], state[section], problems),
  );
  checkReferences(file, state, opts.prune, problems);
  if (problems.length > 0)
    throw new CliError(
      `the file does not fit the project:\n${problems.map((p) => `  ${p}`).join('\n')}`,
      EXIT.usage,
    );
  return opts.prune ? [...changes, ...planPrune(file, state)] : changes;
}
