import type { BodyOf, ResponseOf } from '@hookrail/api-contract';
import { CHANGE_OPERATIONS, CHANGE_STREAM_DATABASES, FULL_DOCUMENT_MODES } from '@hookrail/api-contract';
import type { Values } from '../../components/form/context';
import { CheckField, SelectField, TextField } from '../../components/form/fields';
import { field, flag, json, jsonField, list, text } from '../../components/form/values';
import type { api } from '../api';

type Source = ResponseOf<typeof api.getSource>;
type ChangeStream = NonNullable<BodyOf<typeof api.createSource>['db_change_stream']>;
type Kind = ChangeStream['type'];

/** A database kind the contract lists but this table does not name shows as its own name. */
const DATABASE_LABELS: Record<string, string> = { mongodb: 'MongoDB', postgres: 'PostgreSQL' };
const FULL_DOCUMENT_LABELS: Record<(typeof FULL_DOCUMENT_MODES)[number], string> = {
  updateLookup: 'the document when the change is read (updateLookup)',
  whenAvailable: 'the post-image, if the collection records them',
  off: 'none',
};
const PLACEHOLDERS: Record<string, string> = {
  mongodb: 'mongodb://user:password@db.example.com:27017/?replicaSet=rs0',
  postgres: 'postgres://user:password@db.example.com:5432/shop',
};
/** The operations only one kind of database has (the contract refuses them on the other). */
const ONLY_ON: Partial<Record<(typeof CHANGE_OPERATIONS)[number], Kind>> = {
  replace: 'mongodb',
  truncate: 'postgres',
};
const operationsOf = (kind: string) => CHANGE_OPERATIONS.filter((op) => (ONLY_ON[op] ?? kind) === kind);
const at = (k: string) => `db_change_stream.${k}`;

/** The form's values of a source's change stream. The connection string is never returned: always empty. */
export function changeStreamValues(s?: Source): Values {
  const cs = s?.db_change_stream;
  const operations = cs?.operations ?? CHANGE_OPERATIONS;
  return {
    [at('type')]: cs?.type ?? CHANGE_STREAM_DATABASES[0],
    [at('connection_string')]: '',
    [at('database')]: field(cs?.database),
    [at('collections')]: (cs?.collections ?? []).join(', '),
    ...Object.fromEntries(CHANGE_OPERATIONS.map((op) => [at(`operations.${op}`), operations.includes(op)])),
    [at('full_document')]: cs?.full_document ?? 'updateLookup',
    [at('match')]: jsonField(cs?.match),
    [at('event_type_template')]: field(cs?.event_type_template),
    [at('tables')]: (cs?.tables ?? []).join(', '),
    [at('publication')]: field(cs?.publication),
    [at('slot')]: field(cs?.slot),
    [at('create_if_missing')]: cs?.create_if_missing ?? false,
  };
}

/**
 * The `db_change_stream` member of the request. An empty connection string is left out: on an edit
 * the API keeps the stored one (on a create the form requires it before sending).
 */
export function changeStreamOf(v: Values): ChangeStream {
  const type = v[at('type')] as Kind;
  const common = {
    type,
    connection_string: text(v, at('connection_string'))!,
    database: text(v, at('database'))!,
    operations: operationsOf(type).filter((op) => flag(v, at(`operations.${op}`))),
    event_type_template: text(v, at('event_type_template')),
  };
  // Only the fields of the chosen kind: the API refuses the other kind's.
  if (type === 'postgres')
    return {
      ...common,
      tables: list(v, at('tables')) ?? [],
      publication: text(v, at('publication')),
      slot: text(v, at('slot')),
      create_if_missing: flag(v, at('create_if_missing')),
    };
  return {
    ...common,
    collections: list(v, at('collections')) ?? [],
    full_document: v[at('full_document')] as ChangeStream['full_document'],
    match: json<Record<string, unknown>>(v, at('match')),
  };
}

function MongoFields() {
  return (
    <>
      <div class="field-row">
        <TextField
          name={at('collections')}
          label="Collections"
          hint="Separated by commas; empty: every one"
        />
        <SelectField
          name={at('full_document')}
          label="Document of an update"
          options={FULL_DOCUMENT_MODES.map((value) => ({ value, label: FULL_DOCUMENT_LABELS[value] }))}
        />
      </div>
      <TextField
        name={at('match')}
        label="$match stage (JSON)"
        json
        placeholder={'{ "fullDocument.total": { "$gt": 0 } }'}
        hint="Run by the database over the change events; checked against it when saved"
      />
    </>
  );
}

function PostgresFields() {
  return (
    <>
      <div class="field-row">
        <TextField
          name={at('tables')}
          label="Tables"
          placeholder="public.orders"
          hint="Separated by commas; empty: every table of the publication"
        />
        <TextField name={at('publication')} label="Publication" />
        <TextField name={at('slot')} label="Replication slot" />
      </div>
      <CheckField name={at('create_if_missing')} label="Create the publication and slot if missing" />
    </>
  );
}

/** The change stream's fields; `editing`: a connection string is stored and kept unless one is typed. */
export function ChangeStreamFields({ v, editing }: { v: Values; editing: boolean }) {
  const kind = String(v[at('type')]);
  const kinds = CHANGE_STREAM_DATABASES.map((value) => ({ value, label: DATABASE_LABELS[value] ?? value }));
  return (
    <fieldset>
      <legend>Database change stream</legend>
      <div class="field-row">
        <SelectField name={at('type')} label="Database kind" options={kinds} />
        <TextField
          name={at('connection_string')}
          label="Connection string"
          type="password"
          required={!editing}
          placeholder={editing ? 'stored: type one to replace it' : PLACEHOLDERS[kind]}
          hint="Never shown again: stored sealed, the API does not return it"
        />
        <TextField name={at('database')} label="Database name" />
      </div>
      {kind === 'postgres' ? <PostgresFields /> : <MongoFields />}
      <div class="field-row">
        <TextField
          name={at('event_type_template')}
          label="Event type"
          placeholder={kind === 'postgres' ? '{table}.{operation}' : '{collection}.{operation}'}
          hint={
            kind === 'postgres'
              ? '{schema}, {table} and {operation} are replaced'
              : '{collection} and {operation} are replaced'
          }
        />
      </div>
      <fieldset class="catalog-choices">
        <legend>Operations</legend>
        {operationsOf(kind).map((op) => (
          <CheckField key={op} name={at(`operations.${op}`)} label={op} />
        ))}
      </fieldset>
    </fieldset>
  );
}
