import type { LRUCache } from 'lru-cache';
import type { ValidateFunction } from 'ajv';
import { errorMessage, type FieldError, type ProjectId } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';
import { compileDataSchema, validateData, validationBudgetMs } from '@hookrail/event-schemas';
import { DEFAULT_EVENT_VALIDATION, type EventValidationConfig } from '@hookrail/store';
import type { Metrics } from '@hookrail/telemetry';

/** What intake needs of a catalog entry: its schema text and when it last changed (its version). */
export interface CatalogEntry {
  json_schema_json: string | null;
  updated_at: Date;
}

/** The project's live event type of this name, or null (a `*` or any other unknown name). */
export type ReadCatalogEntry = (projectId: ProjectId, name: string) => Promise<CatalogEntry | null>;

/** Where the event came in: a label of the outcome counter. */
export type Intake = 'events_api' | 'http_source' | 'broker_source';

/**
 * `accepted`: publish, with `violations` recorded on the event (warn; empty when it passed).
 * `refused`: answer 400 (HTTP) or dead-letter (brokers) with `message`, which names every
 * violation (`data.amount must be >= 0; data.id is required`), and the violations as field errors.
 */
export type EventCheck =
  | { kind: 'accepted'; violations: FieldError[] }
  | { kind: 'refused'; message: string; violations: FieldError[] };

type Outcome = 'valid' | 'invalid' | 'timed_out' | 'no_schema' | 'unknown_type';

/** A catalog entry ready to check against: its version and validator (null: no schema). */
interface Loaded {
  version: number;
  validate: ValidateFunction | null;
  /** The stored schema no longer compiles (a limit added since it was stored). */
  broken?: string;
  /** When a check against it last ran out of its time budget. */
  timedOutAt?: number;
}

export interface EventValidatorOptions {
  /** How long an entry is used before it is read again (default 2 s). */
  ttlMs?: number;
}

/**
 * After a check of a type ran out of time, its events are not checked for this long and count as
 * timed out: a costly schema holds up the replica for one budget per cool-down, however many
 * events of its type arrive.
 */
const COOLDOWN_MS = 10_000;

const ACCEPTED: EventCheck = { kind: 'accepted', violations: [] };

/**
 * Checks events against their project's event type catalog at intake. Each replica keeps, per
 * project and type, the entry read from the catalog for `ttlMs` (then the first event reads it
 * again while being answered from the old entry, so no event waits on the database at expiry) and
 * the validator compiled from it, compiled again only when the entry's `updated_at` changed. A
 * type changed through another replica is therefore checked with its new schema within `ttlMs`;
 * the replica that changed it forgets the project's entries at once (`forget`).
 */
export class EventValidator {
  private readonly entries: LRUCache<
    string,
    { loaded: Loaded | null },
    { projectId: ProjectId; name: string }
  >;
  private readonly outcomes;

  constructor(
    read: ReadCatalogEntry,
    metrics: Metrics,
    private readonly intake: Intake,
    opts: EventValidatorOptions = {},
  ) {
    this.outcomes = metrics.counter(
      'hookrail_event_validation_total',
      'Events checked against the event type catalog at intake, by mode, outcome and verdict',
      ['intake', 'mode', 'outcome', 'verdict'],
    );
    this.entries = boundedLru(10_000, {
      ttl: opts.ttlMs ?? 2000,
      allowStale: true,
      noDeleteOnStaleGet: true,
      // the database down: the entry this replica had still answers
      allowStaleOnFetchRejection: true,
      fetchMethod: async (_key, stale, { context }) => {
        const entry = await read(context.projectId, context.name);
        if (!entry) return { loaded: null };
        const version = entry.updated_at.getTime();
        if (stale?.loaded && stale.loaded.version === version) return stale;
        return { loaded: load(entry, version) };
      },
    });
  }

  /**
   * The verdict on an event of `eventType` with `data` (`payloadBytes` as JSON: it sets the time
   * budget) under the project's settings.
   */
  async check(
    projectId: ProjectId,
    settings: EventValidationConfig | undefined,
    eventType: string,
    data: unknown,
    payloadBytes: number,
  ): Promise<EventCheck> {
    const { mode, unknown_types: unknownTypes } = { ...DEFAULT_EVENT_VALIDATION, ...settings };
    if (mode === 'off' && unknownTypes === 'allow') return ACCEPTED;
    const hit = await this.entries.fetch(`${projectId}\n${eventType}`, {
      context: { projectId, name: eventType },
    });
    const loaded = hit?.loaded ?? null;
    if (!loaded) {
      const verdict = unknownTypes === 'allow' ? 'accepted' : unknownTypes === 'warn' ? 'warned' : 'refused';
      this.count(mode, 'unknown_type', verdict);
      if (unknownTypes === 'allow') return ACCEPTED;
      const violation = {
        field: 'event_type',
        message: `${JSON.stringify(eventType)} is not in the project's event type catalog`,
      };
      return unknownTypes === 'warn'
        ? { kind: 'accepted', violations: [violation] }
        : { kind: 'refused', message: `event_type ${violation.message}`, violations: [violation] };
    }
    if (mode === 'off') return ACCEPTED;
    let outcome: Outcome;
    let violations: FieldError[];
    if (loaded.broken !== undefined) {
      outcome = 'invalid';
      violations = [{ field: 'data', message: loaded.broken }];
    } else if (!loaded.validate) {
      this.count(mode, 'no_schema', 'accepted');
      return ACCEPTED;
    } else if (loaded.timedOutAt !== undefined && Date.now() - loaded.timedOutAt < COOLDOWN_MS) {
      outcome = 'timed_out';
      const seconds = COOLDOWN_MS / 1000;
      violations = [
        {
          field: 'data',
          message: `was not checked: a check against this event type's schema ran out of time less than ${seconds} s ago`,
        },
      ];
    } else {
      const checked = validateData(loaded.validate, data, 'data', validationBudgetMs(payloadBytes));
      if (checked.kind === 'valid') {
        this.count(mode, 'valid', 'accepted');
        return ACCEPTED;
      }
      if (checked.kind === 'timed_out') loaded.timedOutAt = Date.now();
      outcome = checked.kind;
      violations = checked.errors;
    }
    this.count(mode, outcome, mode === 'warn' ? 'warned' : 'refused');
    if (mode === 'warn') return { kind: 'accepted', violations };
    const paths = violations.map((v) => `${v.field} ${v.message}`).join('; ');
    return {
      kind: 'refused',
      message: `data does not match the schema of event type ${JSON.stringify(eventType)}: ${paths}`,
      violations,
    };
  }

  /**
   * The project's catalog was changed through this replica: its next events read it again (other
   * replicas see the change within `ttlMs`).
   */
  forget(projectId: ProjectId): void {
    const prefix = `${projectId}\n`;
    const keys = [...this.entries.keys()].filter((k) => k.startsWith(prefix));
    for (const key of keys) this.entries.delete(key);
  }

  private count(mode: string, outcome: Outcome, verdict: 'accepted' | 'warned' | 'refused'): void {
    this.outcomes.inc({ intake: this.intake, mode, outcome, verdict });
  }
}

function load(entry: CatalogEntry, version: number): Loaded {
  if (entry.json_schema_json === null) return { version, validate: null };
  try {
    return { version, validate: compileDataSchema(entry.json_schema_json, 'json_schema') };
  } catch (err) {
    return {
      version,
      validate: null,
      broken: `cannot be checked: the event type's json_schema no longer compiles (${errorMessage(err)})`,
    };
  }
}
