import {
  endpointCreateBody,
  eventTypeCreateBody,
  responseOnly,
  sourceCreateBody,
  subscriptionCreateBody,
} from '@hookrail/api-contract';
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parseDocument } from 'yaml';
import { CliError, EXIT } from '../exit-codes';

/** The file's sections, in the order they are applied (a subscription names endpoints and sources). */
export const SECTIONS = ['event_types', 'sources', 'endpoints', 'subscriptions'] as const;
export type Section = (typeof SECTIONS)[number];

/** One item of a section: the API's create body; a subscription names its endpoint and source. */
export type Entry = Record<string, unknown> & { name: string };
export type ApplyFile = Partial<Record<Section, Entry[]>>;

/** A create body as the file takes it: without the response-only fields (unknown there) and `drop`. */
function inputOf(body: TObject, drop: string[] = [], extra: TProperties = {}): TObject {
  const kept = Object.entries(body.properties).filter(
    ([key, schema]) => schema.description !== responseOnly.description && !drop.includes(key),
  );
  const { properties: _, required: __, ...rules } = body;
  return Type.Object({ ...Object.fromEntries(kept), ...extra }, rules);
}

const subscriptionEntry = inputOf(subscriptionCreateBody, ['endpoint_id', 'source_id', 'app_id'], {
  endpoint: Type.String({ minLength: 1, description: 'the name of an endpoint of the file or the project' }),
  source: Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      description: 'the name of a source of the file or the project; null: none',
    }),
  ),
});

const fileSchema = Type.Object(
  {
    event_types: Type.Optional(Type.Array(inputOf(eventTypeCreateBody))),
    sources: Type.Optional(Type.Array(inputOf(sourceCreateBody))),
    endpoints: Type.Optional(Type.Array(inputOf(endpointCreateBody))),
    subscriptions: Type.Optional(Type.Array(subscriptionEntry)),
  },
  { additionalProperties: false },
);

let validateFile: ValidateFunction | undefined;

/** The file's check, compiled on first use (every other command starts without it). */
function fileValidator(): ValidateFunction {
  if (!validateFile) {
    const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
    addFormats(ajv);
    validateFile = ajv.compile(fileSchema);
  }
  return validateFile;
}

/** `/endpoints/2/url` → `endpoints[2].url`. */
function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}

/** ajv's errors as `path: message` lines, one per path (the first; a branch of a union repeats it). */
function problems(errors: ErrorObject[]): string[] {
  const byPath = new Map<string, string>();
  for (const e of errors) {
    let path = pathOf(e.instancePath);
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'additionalProperties') {
      const field = (e.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys((e.parentSchema as TObject | undefined)?.properties ?? {});
      path = path ? `${path}.${field}` : field;
      message = `unknown field (known: ${known.join(', ')})`;
    } else if (e.keyword === 'required') {
      const field = (e.params as { missingProperty: string }).missingProperty;
      path = path ? `${path}.${field}` : field;
      message = 'is required';
    } else if (e.keyword === 'type') {
      message = `must be ${[(e.params as { type: string | string[] }).type].flat().join(' or ')}`;
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    }
    if (e.keyword === 'anyOf' || e.keyword === 'if' || byPath.has(path)) continue;
    byPath.set(path, message);
  }
  return [...byPath].map(([path, message]) => `${path || '(the file)'}: ${message}`);
}

/** Names given twice in a section: apply matches items by name, so each names one item. */
function duplicates(file: ApplyFile): string[] {
  const found: string[] = [];
  for (const section of SECTIONS) {
    const first = new Map<string, number>();
    (file[section] ?? []).forEach((entry, i) => {
      const before = first.get(entry.name);
      if (before === undefined) first.set(entry.name, i);
      else found.push(`${section}[${i}].name: "${entry.name}" is also ${section}[${before}]'s name`);
    });
  }
  return found;
}

/** A usage error (exit 2) listing what is wrong, each line naming where. */
const invalid = (where: string, lines: string[]) =>
  new CliError(`${where}:\n${lines.map((l) => `  ${l}`).join('\n')}`, EXIT.usage);

/**
 * Reads and checks an apply file (YAML, or JSON which is YAML too) before anything is sent: its
 * syntax, then each item against the API's create body (a field the API does not take is refused
 * here, with the fields it does), then names given twice. Any problem is a usage error (exit 2)
 * naming each place, e.g. `endpoints[2].url: must match format "uri"`.
 */
export function parseApplyFile(text: string, where: string): ApplyFile {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0)
    throw invalid(
      `${where} is not valid YAML`,
      doc.errors.map((e) => e.message.split('\n')[0]),
    );
  const value: unknown = doc.toJS();
  if (value === null || value === undefined)
    throw invalid(where, [`empty: give one or more of ${SECTIONS.join(', ')}`]);
  const validate = fileValidator();
  if (!validate(value)) throw invalid(where, problems(validate.errors ?? []));
  const file = value as ApplyFile;
  const twice = duplicates(file);
  if (twice.length > 0) throw invalid(where, twice);
  return file;
}
