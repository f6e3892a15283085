import type { ChangeStreamProblem } from './settings';

const F = 'db_change_stream';
/** The fields only one database type understands: given for the other type, they are a 400. */
const ONLY: Record<'mongodb' | 'postgres', readonly string[]> = {
  mongodb: ['collections', 'full_document', 'match'],
  postgres: ['tables', 'publication', 'slot', 'create_if_missing'],
};
const OPERATIONS: Record<'mongodb' | 'postgres', readonly string[]> = {
  mongodb: ['insert', 'update', 'replace', 'delete'],
  postgres: ['insert', 'update', 'delete', 'truncate'],
};
const SCHEMES: Record<'mongodb' | 'postgres', RegExp> = {
  mongodb: /^mongodb(\+srv)?:\/\//,
  postgres: /^postgres(ql)?:\/\//,
};

/**
 * The combinations the contract's JSON schema cannot say: a field of the other database type, an
 * operation the type does not have, a connection string of the other type, what postgres
 * requires. Checked before any connection; undefined when the combination is sound.
 */
export function settingsProblem(
  stored: Record<string, unknown>,
  connectionString: string,
): ChangeStreamProblem | undefined {
  const type = stored.type === 'postgres' ? 'postgres' : 'mongodb';
  const other = type === 'postgres' ? 'mongodb' : 'postgres';
  const foreign = ONLY[other].find((f) => stored[f] !== undefined && stored[f] !== null);
  if (foreign) return { field: `${F}.${foreign}`, message: `is only for type ${other}, not ${type}` };
  const ops = Array.isArray(stored.operations) ? stored.operations.map(String) : [];
  // Named by its index, as the contract's own checks name an item of a list.
  const bad = ops.findIndex((o) => !OPERATIONS[type].includes(o));
  if (bad >= 0)
    return {
      field: `${F}.operations.${bad}`,
      message: `"${ops[bad]}" is not an operation of ${type} (${OPERATIONS[type].join(', ')})`,
    };
  if (!SCHEMES[type].test(connectionString))
    return {
      field: `${F}.connection_string`,
      message: `type ${type} needs a ${type === 'postgres' ? 'postgres:// or postgresql://' : 'mongodb:// or mongodb+srv://'} connection string`,
    };
  if (type === 'postgres') {
    const missing = ['publication', 'slot'].find((f) => !stored[f]);
    if (missing) return { field: `${F}.${missing}`, message: 'is required for type postgres' };
  }
  return undefined;
}
